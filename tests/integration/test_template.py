"""template.yaml: generated schemas match the code, Bedrock accepts them, cfn-lint is clean, privileges are least."""

from __future__ import annotations

import json
import re
from typing import Any

import botocore.session
import pytest
from cfnlint.api import lint_file
from cfnlint.decode import decode_str
from openapi_spec_validator import validate
from tooling.layer import REQUIREMENTS, layer_requirements
from tooling.local import ROOT
from tooling.template import (
    derived_files,
    gateway_tool,
    generated,
    generated_schema,
    rendered_template,
    with_agent_hash,
)

from search_core.catalogue import ACTION_GROUPS, SQL_TABLES, camel, instruction_of
from search_core.doors.tools import Tool

TEMPLATE = ROOT / "template.yaml"
TOOL_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


@pytest.fixture(scope="module")
def template() -> Any:
    parsed, errors = decode_str(TEMPLATE.read_text(encoding="utf-8"))
    assert not errors
    return parsed


@pytest.fixture(scope="module")
def payloads(template: Any) -> dict[str, dict[str, Any]]:
    groups = template["Resources"]["Agent"]["Properties"]["ActionGroups"]
    return {group["ActionGroupName"]: json.loads(group["ApiSchema"]["Payload"]) for group in groups}


def test_payloads_are_what_the_resolvers_generate(payloads: dict[str, dict[str, Any]]) -> None:
    assert list(payloads) == list(ACTION_GROUPS)
    for name, group in ACTION_GROUPS.items():
        assert payloads[name] == generated_schema(group), f"run `make schema` ({name} drifted)"


def test_the_template_file_is_exactly_the_rendered_one() -> None:
    assert rendered_template() == TEMPLATE.read_text(encoding="utf-8")


def test_each_sql_function_its_example_and_the_local_env_are_the_generated_ones() -> None:
    files = derived_files()
    assert {p.parent.name for p in files if p.name == "app.py"} == set(SQL_TABLES)
    for path, text in files.items():
        assert path.read_text(encoding="utf-8") == text, f"run `make schema` ({path} drifted)"


def alias_declaration(template_text: str) -> Any:
    parsed, errors = decode_str(template_text)
    assert not errors
    return parsed["Resources"]["AgentAlias"]["Properties"]


@pytest.mark.parametrize(
    "change",
    [
        lambda text: text.replace('"description": "判決の全文', '"description": "判決の本文', 1),  # a payload
        lambda text: text.replace("丁寧かつ簡潔に", "簡潔に", 1),  # the instruction
    ],
    ids=["payload", "instruction"],
)
def test_a_change_to_the_agent_changes_what_the_alias_declares(change: Any) -> None:
    current = TEMPLATE.read_text(encoding="utf-8")
    changed = with_agent_hash(change(current))
    assert changed != current
    assert alias_declaration(changed) != alias_declaration(current)
    assert "RoutingConfiguration" not in alias_declaration(current)  # an update then publishes a new version


def test_the_agents_condition_is_not_part_of_what_the_alias_declares() -> None:
    """Deploying the classic agent where it was before AgentPlatform existed publishes no new version."""
    current = TEMPLATE.read_text(encoding="utf-8")
    unconditional = current.replace(
        "  Agent:\n    Type: AWS::Bedrock::Agent\n    Condition: CreateClassicAgent\n",
        "  Agent:\n    Type: AWS::Bedrock::Agent\n",
        1,
    )
    assert unconditional != current
    assert alias_declaration(with_agent_hash(unconditional)) == alias_declaration(current)


def test_layer_requirements_come_from_pyproject() -> None:
    assert REQUIREMENTS.read_text(encoding="utf-8") == layer_requirements()


def test_cfn_lint_is_clean() -> None:
    assert [str(match) for match in lint_file(TEMPLATE)] == []


@pytest.mark.parametrize("name", ACTION_GROUPS)
def test_each_payload_is_valid_openapi_3_0(payloads: dict[str, dict[str, Any]], name: str) -> None:
    document = payloads[name]
    validate(document)
    assert document["openapi"].startswith("3.0.")


@pytest.mark.parametrize("name", ACTION_GROUPS)
def test_operations_fit_bedrock_tool_rules(payloads: dict[str, dict[str, Any]], name: str) -> None:
    operations = [(method, op) for item in payloads[name]["paths"].values() for method, op in item.items()]
    assert 0 < len(operations) <= 11
    assert "__" not in name
    for method, operation in operations:
        assert operation["description"].strip()
        assert "__" not in operation["operationId"]
        assert TOOL_NAME.match(f"{method}__{name}__{operation['operationId']}")


def test_the_classic_agents_apis_stay_within_the_stricter_reading_of_its_quota(
    payloads: dict[str, dict[str, Any]],
) -> None:
    """AWS's quotas page names "APIs per Agent"; a deployment's notes give 11 by default (docs/deployment.md, "Not
    verified without an account"). Counted over the whole agent, not per action group, a first deploy passes
    whichever it means."""
    operations = [op for payload in payloads.values() for item in payload["paths"].values() for op in item.values()]
    assert len(operations) <= 11


@pytest.mark.parametrize("name", ACTION_GROUPS)
def test_no_construct_outside_bedrocks_subset(payloads: dict[str, dict[str, Any]], name: str) -> None:
    text = json.dumps(payloads[name])
    assert '"anyOf"' not in text and '"oneOf"' not in text and '"allOf"' not in text
    assert "HTTPValidationError" not in text


@pytest.mark.parametrize("name", ACTION_GROUPS)
def test_error_responses_describe_the_real_error_body(payloads: dict[str, dict[str, Any]], name: str) -> None:
    document = payloads[name]
    for item in document["paths"].values():
        for operation in item.values():
            assert {"200", "400", "404", "422", "503"} <= set(operation["responses"])
            success = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
            assert success.rsplit("/", 1)[-1] in document["components"]["schemas"]
    assert document["components"]["schemas"]["ErrorResponse"]["required"] == ["error"]


@pytest.mark.parametrize("name", ACTION_GROUPS)
def test_each_function_reads_only_its_own_objects(template: Any, name: str) -> None:
    group = ACTION_GROUPS[name]
    properties = template["Resources"][f"{camel(name)}Function"]["Properties"]
    statements = [s for policy in properties["Policies"] for s in policy["Statement"]]
    bucket = {"Bucket": {"Fn::If": ["CreateDataBucket", {"Ref": "DataBucket"}, {"Ref": "DataBucketName"}]}}
    objects = [f"${{{group.key_parameter}}}"] + ([f"${{{group.key_parameter}}}.duckdb"] if name in SQL_TABLES else [])
    assert statements == [
        {
            "Effect": "Allow",
            "Action": "s3:GetObject",
            "Resource": [{"Fn::Sub": [f"arn:${{AWS::Partition}}:s3:::${{Bucket}}/{key}", bucket]} for key in objects],
        }
    ]
    uri = properties["Environment"]["Variables"][group.data_variable]
    assert uri["Fn::Sub"][0] == f"s3://${{Bucket}}/${{{group.key_parameter}}}"
    assert properties["CodeUri"] == f"functions/{name}/"
    assert template["Parameters"][group.key_parameter]["Default"] == group.default_key


def test_each_function_is_invoked_only_by_this_agent(template: Any) -> None:
    permissions = [r for r in template["Resources"].values() if r["Type"] == "AWS::Lambda::Permission"]
    assert len(permissions) == len(ACTION_GROUPS)
    for permission in permissions:
        assert permission["Condition"] == "CreateClassicAgent"  # the harness reaches them through the Gateway
        assert permission["Properties"]["Principal"] == "bedrock.amazonaws.com"
        assert permission["Properties"]["SourceArn"] == {"Fn::GetAtt": ["Agent", "AgentArn"]}
    executors = [
        group["ActionGroupExecutor"]["Lambda"] for group in template["Resources"]["Agent"]["Properties"]["ActionGroups"]
    ]
    invoked = [{"Ref": f"{camel(name)}Function.Alias"} for name in ACTION_GROUPS]
    assert [p["Properties"]["FunctionName"] for p in permissions] == invoked == executors  # the published version


def test_a_created_bucket_is_private_encrypted_and_tls_only(template: Any) -> None:
    bucket = template["Resources"]["DataBucket"]["Properties"]
    assert all(bucket["PublicAccessBlockConfiguration"].values())
    assert bucket["BucketEncryption"]["ServerSideEncryptionConfiguration"][0]["ServerSideEncryptionByDefault"]
    statement = template["Resources"]["DataBucketPolicy"]["Properties"]["PolicyDocument"]["Statement"][0]
    assert statement["Effect"] == "Deny" and statement["Condition"] == {"Bool": {"aws:SecureTransport": "false"}}


def test_the_agent_role_may_invoke_only_the_chosen_model(template: Any) -> None:
    role = template["Resources"]["AgentRole"]["Properties"]
    statements = role["Policies"][0]["PolicyDocument"]["Statement"]
    invoke = statements[0]
    assert invoke["Action"] == ["bedrock:InvokeModel", "bedrock:InvokeModelWithResponseStream"]
    resources = json.dumps(invoke["Resource"])
    assert "foundation-model/${FoundationModelId}" in resources and "*" not in resources.replace("bedrock:*::", "")


def test_functions_match_the_layout(template: Any) -> None:
    functions = {
        name: resource["Properties"]
        for name, resource in template["Resources"].items()
        if resource["Type"] == "AWS::Serverless::Function"
    }
    assert set(functions) == {f"{camel(name)}Function" for name in ACTION_GROUPS}
    for properties in functions.values():
        assert (ROOT / properties["CodeUri"] / "app.py").exists()
    globals_ = template["Globals"]["Function"]
    assert (globals_["Runtime"], globals_["Architectures"], globals_["Handler"]) == (
        "python3.13",
        ["arm64"],
        "app.lambda_handler",
    )
    assert globals_["Tracing"] == "Active"


def test_the_layer_builds_with_its_own_makefile(template: Any) -> None:
    layer = template["Resources"]["SharedLayer"]
    assert layer["Metadata"]["BuildMethod"] == "makefile"
    makefile = (ROOT / layer["Properties"]["ContentUri"] / "Makefile").read_text()
    assert "build-SharedLayer:" in makefile and "--only-binary=:all:" in makefile


def test_every_operation_has_an_event(payloads: dict[str, dict[str, Any]]) -> None:
    for name, document in payloads.items():
        events = [json.loads(p.read_text(encoding="utf-8")) for p in (ROOT / "events" / name).glob("*.json")]
        covered = {(e["httpMethod"].lower(), e["apiPath"]) for e in events}
        for path, item in document["paths"].items():
            for method in item:
                assert (method, path) in covered, f"no event in events/{name}/ for {method.upper()} {path}"


def test_env_json_names_every_function(template: Any) -> None:
    env = json.loads((ROOT / "events" / "env.json").read_text(encoding="utf-8"))
    assert set(env) == {f"{camel(name)}Function" for name in ACTION_GROUPS}
    for name, group in ACTION_GROUPS.items():
        assert env[f"{camel(name)}Function"][group.data_variable].startswith("s3://"), name


GATEWAY_RESOURCES = ("GatewayRole", "Gateway", "GatewayUserPool", "GatewayUserPoolDomain", "GatewayResourceServer",
                     "GatewayClient")  # fmt: skip


@pytest.fixture(scope="module")
def tools() -> dict[str, list[Tool]]:
    return {name: list(generated(group).tools.values()) for name, group in ACTION_GROUPS.items()}


def test_each_gateway_target_offers_its_functions_own_tools(template: Any, tools: dict[str, list[Tool]]) -> None:
    for name in ACTION_GROUPS:
        target = template["Resources"][f"{camel(name)}GatewayTarget"]
        assert target["Condition"] == "CreateGateway"
        lambda_target = target["Properties"]["TargetConfiguration"]["Mcp"]["Lambda"]
        assert lambda_target["LambdaArn"] == {"Ref": f"{camel(name)}Function.Alias"}
        assert lambda_target["ToolSchema"]["InlinePayload"] == [gateway_tool(tool) for tool in tools[name]]


def test_the_gateway_role_may_invoke_our_functions_and_nothing_else(template: Any) -> None:
    role = template["Resources"]["GatewayRole"]["Properties"]
    [trust] = role["AssumeRolePolicyDocument"]["Statement"]
    assert trust["Principal"] == {"Service": "bedrock-agentcore.amazonaws.com"}
    assert trust["Condition"]["StringEquals"]["aws:SourceAccount"] == {"Ref": "AWS::AccountId"}
    [policy] = role["Policies"]
    [statement] = policy["PolicyDocument"]["Statement"]
    assert statement["Effect"] == "Allow" and statement["Action"] == "lambda:InvokeFunction"
    assert statement["Resource"] == [{"Ref": f"{camel(name)}Function.Alias"} for name in ACTION_GROUPS]


def test_the_gateway_is_never_open(template: Any) -> None:
    assert template["Parameters"]["McpGateway"]["Default"] == "off"  # without the harness, no Gateway unless asked
    for name in GATEWAY_RESOURCES:
        assert template["Resources"][name]["Condition"] in ("CreateGateway", "GatewayUsesCognito")
    authorizer = template["Resources"]["Gateway"]["Properties"]["AuthorizerType"]
    assert authorizer == {"Fn::If": ["GatewayUsesCognito", "CUSTOM_JWT", "AWS_IAM"]}
    assert template["Outputs"]["GatewayUrl"]["Value"] == {"Fn::GetAtt": ["Gateway", "GatewayUrl"]}


def test_each_argument_says_in_words_what_the_gateways_schema_drops(tools: dict[str, list[Tool]]) -> None:
    """A Gateway's inline schema has no enum, default or format: the model behind it reads them in the description."""
    for tool in (tool for group in tools.values() for tool in group):
        for name, argument in tool.input_schema["properties"].items():
            said = argument.get("description", "")
            assert all(value in said for value in argument.get("enum", [])), (tool.name, name)
            assert (
                "default" not in argument
                or f"既定 {argument['default']}" in said
                or (f"{argument['default']}（既定）" in said)
            ), (tool.name, name)
            assert argument.get("format") != "date" or "YYYY-MM-DD" in said, (tool.name, name)


def test_descriptions_name_operations_not_paths(tools: dict[str, list[Tool]]) -> None:
    """Every door shows the model operation names (MCP has no paths); a path in a description names nothing."""
    everything = [tool for group in tools.values() for tool in group]
    for tool in everything:
        text = json.dumps([tool.description, tool.input_schema], ensure_ascii=False)
        assert not [other.path for other in everything if other.path in text], tool.name


def test_the_instruction_names_every_action_group_and_every_case_law_tool(template: Any) -> None:
    """One instruction serves both jobs (the area concierge and the legal research assistant), on both platforms:
    the agent is told which tools serve which, so every action group and each case-law operation is named. Each
    kind's role names its action groups, so a new entry in the catalogue is named without another edit."""
    instruction = template["Resources"]["Agent"]["Properties"]["Instruction"]
    assert instruction == instruction_of(ACTION_GROUPS.values())
    assert all(name in instruction for name in ACTION_GROUPS)
    assert all(operation in instruction for operation in ("searchCases", "findInCase", "readCaseText"))
    assert all(operation in instruction for operation in ("getArticle", "searchStatutes", "lawContents"))
    assert "コンシェルジュ" in instruction and "法律調査" in instruction
    # Bedrock's own API model bounds the instruction (CreateAgent's Instruction shape).
    shape = botocore.session.get_session().get_service_model("bedrock-agent").shape_for("Instruction")
    assert shape.metadata["min"] <= len(instruction) <= shape.metadata["max"]
