"""template.yaml's AgentPlatform: what each value deploys, and the harness as the issue asks for it (only the
Gateway's tools, the agent's instruction as its prompt, the same model, a role that reaches nothing else)."""

from __future__ import annotations

import json
import re
from itertools import product
from typing import Any

import pytest
from cfnlint.api import ManualArgs, lint
from cfnlint.decode import decode_str
from tooling.local import ROOT
from tooling.template import agent_instruction

from search_core.catalogue import ACTION_GROUPS, camel

TEMPLATE = ROOT / "template.yaml"
PLATFORMS = ("harness", "classic", "none")
GATEWAY_MODES = ("off", "iam", "cognito")
# A guardrail off or on (an ID and its version), and SnapStart off or on: each pinned as a deploy would give it.
GUARDRAILS = {
    "off": {"GuardrailId": "", "GuardrailVersion": ""},
    "on": {"GuardrailId": "abc123", "GuardrailVersion": "1"},
}
SNAPSTART = ("off", "on")
# The README's Region, where the default inference profile (jp) runs, and cfn-lint's default one.
REGIONS = ["ap-northeast-1", "us-east-1"]
# CloudFormation's pattern for an AllowedTools entry, and its length limit.
ALLOWED_TOOL = re.compile(r"^(\*|@?[^/]+(/[^/]+)?)$")

ALWAYS = {"DataBucket", "DataBucketPolicy", "SharedLayer"} | {
    f"{camel(name)}{kind}" for name in ACTION_GROUPS for kind in ("Logs", "Function")
}
CLASSIC = {"AgentRole", "Agent", "AgentAlias"} | {f"{camel(name)}InvokePermission" for name in ACTION_GROUPS}
GATEWAY = {"GatewayRole", "Gateway"} | {f"{camel(name)}GatewayTarget" for name in ACTION_GROUPS}
COGNITO = {"GatewayUserPool", "GatewayUserPoolDomain", "GatewayResourceServer", "GatewayClient"}
HARNESS = {"HarnessRole", "Harness"}


def expected_resources(platform: str, gateway: str) -> set[str]:
    """What the issue asks each combination to deploy: the harness brings an IAM Gateway whatever McpGateway says."""
    if platform == "harness":
        return ALWAYS | HARNESS | GATEWAY
    agent = CLASSIC if platform == "classic" else set()
    mcp = {"off": set(), "iam": GATEWAY, "cognito": GATEWAY | COGNITO}[gateway]
    return ALWAYS | agent | mcp


@pytest.fixture(scope="module")
def template() -> Any:
    parsed, errors = decode_str(TEMPLATE.read_text(encoding="utf-8"))
    assert not errors
    return parsed


def holds(condition: Any, template: Any, parameters: dict[str, str]) -> bool:
    """A condition of `template` (or an intrinsic inside one) evaluated for `parameters`, the rest at their defaults.

    >>> t = {"Parameters": {"P": {"Default": "a"}}, "Conditions": {"IsA": {"Fn::Equals": [{"Ref": "P"}, "a"]}}}
    >>> holds({"Fn::Not": [{"Condition": "IsA"}]}, t, {}), holds({"Condition": "IsA"}, t, {"P": "a"})
    (False, True)
    """
    if isinstance(condition, str):
        return holds(template["Conditions"][condition], template, parameters)
    [(function, arguments)] = condition.items()
    if function == "Condition":
        return holds(arguments, template, parameters)
    if function == "Fn::Equals":
        left, right = (value_of(argument, template, parameters) for argument in arguments)
        return bool(left == right)
    if function == "Fn::Not":
        return not holds(arguments[0], template, parameters)
    if function == "Fn::And":
        return all(holds(argument, template, parameters) for argument in arguments)
    if function == "Fn::Or":
        return any(holds(argument, template, parameters) for argument in arguments)
    raise ValueError(f"not a condition function: {function}")


def value_of(argument: Any, template: Any, parameters: dict[str, str]) -> Any:
    if isinstance(argument, dict) and "Ref" in argument:
        name = argument["Ref"]
        return parameters.get(name, str(template["Parameters"][name].get("Default", "")))
    return argument


def deployed(section: str, template: Any, parameters: dict[str, str]) -> set[str]:
    """The names in `section` (Resources, Outputs) whose Condition holds for `parameters`."""
    return {
        name
        for name, declaration in template[section].items()
        if "Condition" not in declaration or holds(declaration["Condition"], template, parameters)
    }


@pytest.mark.parametrize(("platform", "gateway"), list(product(PLATFORMS, GATEWAY_MODES)))
def test_each_platform_deploys_its_resources_and_no_others(template: Any, platform: str, gateway: str) -> None:
    parameters = {"AgentPlatform": platform, "McpGateway": gateway}
    assert deployed("Resources", template, parameters) == expected_resources(platform, gateway)


def test_the_default_is_the_harness_with_its_gateway(template: Any) -> None:
    assert template["Parameters"]["AgentPlatform"]["Default"] == "harness"
    assert deployed("Resources", template, {}) == expected_resources("harness", "off")


@pytest.mark.parametrize(
    ("platform", "gateway", "guardrail", "snapstart"), list(product(PLATFORMS, GATEWAY_MODES, GUARDRAILS, SNAPSTART))
)
def test_cfn_lint_is_clean_for_each_combination(
    template: Any, platform: str, gateway: str, guardrail: str, snapstart: str
) -> None:
    """The template as CloudFormation sees it when the parameters can hold only these values (a branch of an `!If`
    that pinning leaves unreachable, W1028, is what pinning means; the template itself is linted whole)."""
    fixed = json.loads(json.dumps(template))
    # Without a guardrail, its parameters keep their defaults (empty) and patterns, as a deploy without one has them.
    pinned = {"AgentPlatform": platform, "McpGateway": gateway, "SnapStart": snapstart}
    pinned |= GUARDRAILS[guardrail] if guardrail == "on" else {}
    for name, value in pinned.items():
        fixed["Parameters"][name].pop("AllowedPattern", None)
        fixed["Parameters"][name] |= {"Default": value, "AllowedValues": [value]}
    matches = lint(json.dumps(fixed), regions=REGIONS, config=ManualArgs(ignore_checks=["W1028"]))
    assert [str(match) for match in matches] == []


@pytest.mark.parametrize("platform", PLATFORMS)
def test_outputs_say_how_to_reach_what_was_deployed(template: Any, platform: str) -> None:
    outputs = deployed("Outputs", template, {"AgentPlatform": platform, "McpGateway": "off"})
    agent = {"harness": {"HarnessArn", "GatewayUrl"}, "classic": {"AgentId", "AgentAliasId"}, "none": set()}[platform]
    assert outputs - {f"{camel(name)}FunctionName" for name in ACTION_GROUPS} == {"AgentPlatform", "DataBucket"} | agent
    for name in {"AgentPlatform", "HarnessArn", "AgentId", "AgentAliasId", "GatewayUrl"}:
        assert template["Outputs"][name]["Description"].strip(), name
    assert "make chat" in template["Outputs"]["HarnessArn"]["Description"]
    assert "make chat" in template["Outputs"]["AgentId"]["Description"]


def test_the_harness_prompt_is_the_agents_instruction(template: Any) -> None:
    instruction = template["Resources"]["Agent"]["Properties"]["Instruction"]
    assert agent_instruction(TEMPLATE.read_text(encoding="utf-8")) == instruction
    assert template["Resources"]["Harness"]["Properties"]["SystemPrompt"] == [{"Text": instruction}]


def test_the_harness_may_call_exactly_the_gateway_targets_tools(template: Any) -> None:
    harness = template["Resources"]["Harness"]["Properties"]
    [tool] = harness["Tools"]
    assert tool["Type"] == "agentcore_gateway"
    assert tool["Config"] == {
        "AgentCoreGateway": {"GatewayArn": {"Fn::GetAtt": ["Gateway", "GatewayArn"]}, "OutboundAuth": {"AwsIam": {}}}
    }
    targets = [r["Properties"] for r in template["Resources"].values() if r["Type"].endswith("::GatewayTarget")]
    assert len(targets) == len(ACTION_GROUPS)
    offered = [
        f"@{tool['Name']}/{target['Name']}___{schema['Name']}"
        for target in targets
        for schema in target["TargetConfiguration"]["Mcp"]["Lambda"]["ToolSchema"]["InlinePayload"]
    ]
    assert harness["AllowedTools"] == offered  # no `*`, no @builtin, no shell or file_operations
    assert all(ALLOWED_TOOL.match(name) and len(name) <= 64 for name in offered)


def test_the_harness_uses_the_agents_model_and_bounds_a_question(template: Any) -> None:
    harness = template["Resources"]["Harness"]["Properties"]
    agent = template["Resources"]["Agent"]["Properties"]
    assert harness["Model"]["BedrockModelConfig"]["ModelId"] == agent["FoundationModel"]
    # 2-4 tool calls and the answer, with room to act on an error, and far below the default of 75.
    assert 5 <= harness["MaxIterations"] <= 10
    # Long enough for the slowest function to answer once, with the model's turns around it; AWS's default is 3,600.
    assert max(group.timeout_seconds for group in ACTION_GROUPS.values()) < harness["TimeoutSeconds"] < 3600
    # AWS sets no cap on a turn's output by default.
    assert 1024 <= harness["MaxTokens"] <= 8192
    assert harness["Memory"] == {"Disabled": {}}
    assert "AuthorizerConfiguration" not in harness  # callers sign with IAM: InvokeHarness on its ARN


def test_the_harness_role_may_invoke_the_model_and_our_gateway_and_nothing_else(template: Any) -> None:
    role = template["Resources"]["HarnessRole"]["Properties"]
    [trust] = role["AssumeRolePolicyDocument"]["Statement"]
    assert trust["Principal"] == {"Service": "bedrock-agentcore.amazonaws.com"}
    assert trust["Condition"]["StringEquals"] == {"aws:SourceAccount": {"Ref": "AWS::AccountId"}}
    agent_statements = role_statements(template, "AgentRole")
    *model, gateway = role_statements(template, "HarnessRole")
    assert model == agent_statements[:2] + agent_statements[-1:]  # the model and the guardrail
    assert gateway == {
        "Sid": "InvokeOurGateway",
        "Effect": "Allow",
        "Action": "bedrock-agentcore:InvokeGateway",
        "Resource": {"Fn::GetAtt": ["Gateway", "GatewayArn"]},
    }
    assert "ManagedPolicyArns" not in role


def role_statements(template: Any, role: str, policy: int = 0) -> list[Any]:
    return list(template["Resources"][role]["Properties"]["Policies"][policy]["PolicyDocument"]["Statement"])


def test_the_classic_agent_stays_one_parameter_away(template: Any) -> None:
    for name in CLASSIC:
        assert template["Resources"][name]["Condition"] == "CreateClassicAgent", name
    for name in ("AgentId", "AgentAliasId"):
        assert template["Outputs"][name]["Condition"] == "CreateClassicAgent"
    groups = template["Resources"]["Agent"]["Properties"]["ActionGroups"]
    assert [group["ActionGroupName"] for group in groups] == list(ACTION_GROUPS)
