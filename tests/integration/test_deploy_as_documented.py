"""template.yaml against what AWS's pages document for a first deploy: the harness's execution role statement by
statement, its limits and order, the Gateway's MCP versions, a guardrail on either platform, SnapStart.

Each fact's page is named beside it; docs/deployment.md lists them with what only a real account can confirm.
"""

from __future__ import annotations

from typing import Any

import pytest
from cfnlint.decode import decode_str
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from tooling.deploy_permissions import DOCS, permissions_table, rendered_docs
from tooling.local import ROOT
from tooling.template import SNAPSTART_TMP_MB

from search_core.catalogue import ACTION_GROUPS, camel
from search_core.doors.gateway import MCP_VERSIONS


@pytest.fixture(scope="module")
def template() -> Any:
    parsed, errors = decode_str((ROOT / "template.yaml").read_text(encoding="utf-8"))
    assert not errors
    return parsed


def statements(template: Any, role: str, policy: int = 0) -> list[Any]:
    return list(template["Resources"][role]["Properties"]["Policies"][policy]["PolicyDocument"]["Statement"])


def in_account(service: str, resource: str) -> dict[str, str]:
    return {"Fn::Sub": f"arn:${{AWS::Partition}}:{service}:${{AWS::Region}}:${{AWS::AccountId}}:{resource}"}


RUNTIME_LOGS = "log-group:/aws/bedrock-agentcore/runtimes/*"
WORKLOAD_IDENTITY = {
    "Fn::Join": [
        "",
        [
            {"Fn::Sub": "arn:${AWS::Partition}:bedrock-agentcore:${AWS::Region}:${AWS::AccountId}"
                        ":workload-identity-directory/default/workload-identity/harness_"},
            {"Fn::Join": ["_", {"Fn::Split": ["-", {"Ref": "AWS::StackName"}]}]},
            "-*",
        ],
    ]
}  # fmt: skip
# AWS's sample execution role for a harness on the public network (bedrock-agentcore devguide, harness-security.html,
# "Sample execution role policy"), statement by statement, scoped to this account and Region where its ARNs allow,
# and its advice to deny sts:AssumeRole when no role switching is needed. The workload identity is
# harness_<harness name>-*; the harness's name is the stack's with hyphens as underscores. Left out: the browser,
# code interpreter and memory statements (this harness uses none of them), and logs:PutResourcePolicy on * (for
# CloudWatch Transaction Search, which the operations page has the account's owner turn on once).
DOCUMENTED = {
    "EcrPublicToken": ("Allow", "ecr-public:GetAuthorizationToken", "*", None),
    "BearerTokenForEcrPublic": ("Allow", "sts:GetServiceBearerToken", "*", None),
    "WorkloadIdentity": (
        "Allow",
        ["bedrock-agentcore:GetWorkloadAccessToken", "bedrock-agentcore:GetWorkloadAccessTokenForJWT"],
        [in_account("bedrock-agentcore", "workload-identity-directory/default"), WORKLOAD_IDENTITY],
        None,
    ),
    "Traces": (
        "Allow",
        ["xray:PutTraceSegments", "xray:PutTelemetryRecords", "xray:GetSamplingRules", "xray:GetSamplingTargets"],
        "*",
        None,
    ),
    "RuntimeLogGroups": (
        "Allow",
        ["logs:CreateLogGroup", "logs:DescribeLogStreams"],
        in_account("logs", RUNTIME_LOGS),
        None,
    ),
    "FindLogGroups": ("Allow", "logs:DescribeLogGroups", in_account("logs", "log-group:*"), None),
    "RuntimeLogStreams": (
        "Allow",
        ["logs:CreateLogStream", "logs:PutLogEvents"],
        in_account("logs", RUNTIME_LOGS + ":log-stream:*"),
        None,
    ),
    "HarnessMetrics": (
        "Allow",
        "cloudwatch:PutMetricData",
        "*",
        {"StringEquals": {"cloudwatch:namespace": "bedrock-agentcore"}},
    ),
    "NoRoleSwitching": ("Deny", "sts:AssumeRole", "*", None),
}


@pytest.mark.parametrize("sid", list(DOCUMENTED))
def test_the_harness_role_holds_each_statement_aws_documents_for_a_harness(template: Any, sid: str) -> None:
    effect, action, resource, condition = DOCUMENTED[sid]
    statement = {"Sid": sid, "Effect": effect, "Action": action, "Resource": resource}
    statement |= {"Condition": condition} if condition else {}
    assert statement in statements(template, "HarnessRole", policy=1)


def test_the_harness_role_holds_nothing_past_what_aws_documents(template: Any) -> None:
    assert [s["Sid"] for s in statements(template, "HarnessRole", policy=1)] == list(DOCUMENTED)
    assert len(template["Resources"]["HarnessRole"]["Properties"]["Policies"]) == 2


def test_a_conversation_idles_out_alike_on_both_platforms(template: Any) -> None:
    harness = template["Resources"]["Harness"]["Properties"]
    lifecycle = harness["Environment"]["AgentCoreRuntimeEnvironment"]["LifecycleConfiguration"]
    shared = {"Ref": "SessionIdleTimeoutSeconds"}
    assert lifecycle == {"IdleRuntimeSessionTimeout": shared}
    assert template["Resources"]["Agent"]["Properties"]["IdleSessionTTLInSeconds"] == shared
    parameter = template["Parameters"]["SessionIdleTimeoutSeconds"]
    # The classic agent takes 60-5,400 s (AWS::Bedrock::Agent), the harness 60-28,800 s (its LifecycleConfiguration).
    assert (parameter["MinValue"], parameter["MaxValue"], parameter["Default"]) == (60, 5400, 900)


def test_the_harness_is_made_after_the_targets_whose_tools_it_allows(template: Any) -> None:
    targets = [name for name, r in template["Resources"].items() if r["Type"].endswith("::GatewayTarget")]
    assert len(targets) == len(ACTION_GROUPS)
    assert sorted(template["Resources"]["Harness"]["DependsOn"]) == sorted(targets)


def test_the_gateway_accepts_the_mcp_versions_our_door_speaks(template: Any) -> None:
    mcp = template["Resources"]["Gateway"]["Properties"]["ProtocolConfiguration"]["Mcp"]
    assert mcp == {"SupportedVersions": list(MCP_VERSIONS)}
    # Left out, the Gateway's schema defaults to 2025-03-26 alone; each one named the local server negotiates too.
    assert len(MCP_VERSIONS) > 1 and set(MCP_VERSIONS) <= set(HANDSHAKE_PROTOCOL_VERSIONS)


def guardrail_arn() -> dict[str, str]:
    return in_account("bedrock", "guardrail/${GuardrailId}")


def test_a_guardrail_is_attached_to_the_classic_agent_by_its_configuration(template: Any) -> None:
    agent = template["Resources"]["Agent"]["Properties"]
    configured = {"GuardrailIdentifier": {"Ref": "GuardrailId"}, "GuardrailVersion": {"Ref": "GuardrailVersion"}}
    assert agent["GuardrailConfiguration"] == {"Fn::If": ["HasGuardrail", configured, {"Ref": "AWS::NoValue"}]}


def test_a_guardrail_reaches_the_harness_model_calls_through_additional_params(template: Any) -> None:
    # The harness's models page: a guardrailConfig in bedrockModelConfig.additionalParams, sent with each model call.
    config = template["Resources"]["Harness"]["Properties"]["Model"]["BedrockModelConfig"]
    guardrail = {"guardrailIdentifier": guardrail_arn(), "guardrailVersion": {"Ref": "GuardrailVersion"}}
    assert config["AdditionalParams"] == {
        "Fn::If": ["HasGuardrail", {"guardrailConfig": guardrail}, {"Ref": "AWS::NoValue"}]
    }
    assert config.get("ApiFormat", "converse_stream") == "converse_stream"  # the format that passes it on


@pytest.mark.parametrize("role", ["AgentRole", "HarnessRole"])
def test_each_role_may_apply_the_guardrail_and_only_when_there_is_one(template: Any, role: str) -> None:
    apply = {"Sid": "ApplyTheGuardrail", "Effect": "Allow", "Action": "bedrock:ApplyGuardrail"}
    expected = {"Fn::If": ["HasGuardrail", apply | {"Resource": guardrail_arn()}, {"Ref": "AWS::NoValue"}]}
    assert expected in statements(template, role)


def test_a_guardrail_is_given_with_its_version_or_not_at_all(template: Any) -> None:
    given = [{"Fn::Not": [{"Fn::Equals": [{"Ref": name}, ""]}]} for name in ("GuardrailId", "GuardrailVersion")]
    assert template["Conditions"]["HasGuardrail"] == {"Fn::And": given}
    [assertion] = template["Rules"]["GuardrailNeedsItsVersion"]["Assertions"]
    neither, both = assertion["Assert"]["Fn::Or"]
    assert both == {"Fn::And": given}
    assert neither == {"Fn::And": [{"Fn::Equals": [{"Ref": n}, ""]} for n in ("GuardrailId", "GuardrailVersion")]}
    assert (
        template["Parameters"]["GuardrailId"]["Default"] == template["Parameters"]["GuardrailVersion"]["Default"] == ""
    )


@pytest.mark.parametrize("name", list(ACTION_GROUPS))
def test_snapstart_is_one_parameter_away_on_published_versions(template: Any, name: str) -> None:
    function = template["Resources"][f"{camel(name)}Function"]["Properties"]
    assert template["Parameters"]["SnapStart"]["Default"] == "off"
    assert function["AutoPublishAlias"] == "live"  # SnapStart applies to published versions only
    assert function["SnapStart"] == {"ApplyOn": {"Fn::If": ["UseSnapStart", "PublishedVersions", "None"]}}
    # SnapStart does not support ephemeral storage above 512 MB.
    size = {"Fn::If": ["UseSnapStart", SNAPSTART_TMP_MB, ACTION_GROUPS[name].tmp_storage_mb]}
    assert function["EphemeralStorage"] == {"Size": size} and SNAPSTART_TMP_MB == 512


def test_the_docs_list_what_each_created_resource_types_handlers_need() -> None:
    assert rendered_docs() == DOCS.read_text(encoding="utf-8")  # `make schema` rewrites it


def test_the_deploy_permissions_follow_the_template_and_its_sam_expansion() -> None:
    text = (ROOT / "template.yaml").read_text(encoding="utf-8")
    table = permissions_table(text)
    for kind in ("AWS::Lambda::Alias", "AWS::Lambda::Version", "AWS::BedrockAgentCore::Harness"):
        assert f"| `{kind}` |" in table
    assert "`bedrock-agentcore:CreateHarness`" in table and "`lambda:PublishVersion`" in table
    without_the_harness = permissions_table(
        text.replace("Type: AWS::BedrockAgentCore::Harness", "Type: AWS::SNS::Topic")
    )
    assert "`bedrock-agentcore:CreateHarness`" not in without_the_harness
