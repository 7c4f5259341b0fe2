"""The Gateway's door: a tool call (arguments as the event, the tool's name in the client context) reaches the same
operation as an agent's event, and every call, however malformed, gets a tool result the model can read."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from tooling.local import (
    EVENTS_DIR,
    ClientContext,
    LambdaContext,
    body_of,
    event_arguments,
    gateway_context,
    load_event,
    sample_functions,
    status_of,
)
from tooling.template import generated_schema, target_name

from search_core.catalogue import ACTION_GROUPS
from search_core.doors.envelope import response_bytes
from search_core.doors.tools import TOOL_NAME
from search_core.engine.budget import BUDGET_BYTES

# CloudFormation's rule for a GatewayTarget's Name.
GATEWAY_TARGET_NAME = r"([0-9a-zA-Z][-]?){1,100}"
EVENTS = sorted(path.relative_to(EVENTS_DIR) for path in EVENTS_DIR.glob("*/*.json") if path.parent.name != "env")


@pytest.fixture(scope="module")
def functions(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, ModuleType]]:
    with sample_functions(ACTION_GROUPS, "gateway", tmp_path_factory.mktemp("cache")) as loaded:
        yield loaded


def call(function: ModuleType, tool: str, arguments: Any) -> dict[str, Any]:
    result: dict[str, Any] = function.lambda_handler(arguments, gateway_context(tool, target="cases"))
    return result


def text_of(result: dict[str, Any]) -> Any:
    assert [block["type"] for block in result["content"]] == ["text"]
    return json.loads(result["content"][0]["text"])


@pytest.mark.parametrize("path", EVENTS, ids=str)
def test_every_operation_answers_a_tool_call_as_it_answers_the_agent(
    functions: dict[str, ModuleType], path: Path
) -> None:
    event = load_event(str(path))
    function = functions[path.parent.name]
    tool = next(
        (t for t in function.function.tools.values() if (t.path, t.method) == (event["apiPath"], event["httpMethod"])),
        None,
    )
    if tool is None:  # a path no operation has: a Gateway only calls listed tools
        assert status_of(function.lambda_handler(event, LambdaContext())) == 404
        return
    arguments = event_arguments(event)
    result = call(function, tool.name, arguments)
    unknown = set(arguments) - set(tool.arguments)
    if unknown:  # an agent's event with a misnamed field: the tool call says which name is wrong
        assert result["isError"] and all(name in text_of(result)["error"] for name in unknown)
        return
    agent = function.lambda_handler(event, LambdaContext())
    answer, expected = text_of(result), body_of(agent)
    assert result["isError"] == (status_of(agent) != 200)
    if "text" in expected:  # a page of a decision: the tool result has no envelope to echo, so room for more text
        assert answer.pop("text").startswith(expected.pop("text"))
        assert answer.pop("next_offset") >= expected.pop("next_offset")
    assert answer == expected


@pytest.mark.parametrize("name", ACTION_GROUPS)
def test_each_operation_of_the_payload_is_a_tool_with_a_valid_name(functions: dict[str, ModuleType], name: str) -> None:
    tools = functions[name].function.tools
    payload = generated_schema(ACTION_GROUPS[name])
    assert list(tools) == [
        operation["operationId"] for item in payload["paths"].values() for operation in item.values()
    ]
    for tool in tools.values():
        assert TOOL_NAME.match(tool.name) and "___" not in tool.name
        assert re.fullmatch(GATEWAY_TARGET_NAME, target_name(ACTION_GROUPS[name]))
        # Behind the Gateway the model sees <target>___<tool>; some model APIs take tool names of 64 characters at most.
        assert len(f"{target_name(ACTION_GROUPS[name])}___{tool.name}") <= 64


@pytest.mark.parametrize("name", ["searchCases", "cases___searchCases", "other-target___searchCases"])
def test_a_tool_name_with_or_without_its_target_prefix_reaches_the_tool(
    functions: dict[str, ModuleType], name: str
) -> None:
    context = LambdaContext(client_context=ClientContext(custom={"bedrockAgentCoreToolName": name}))
    result = functions["search_cases"].lambda_handler({"court": "東京地裁"}, context)
    assert not result["isError"] and text_of(result)["results"]


def test_an_unknown_tool_is_a_tool_error_naming_the_tools(functions: dict[str, ModuleType]) -> None:
    result = call(functions["search_events"], "dropEvents", {"sql_query": "SELECT 1"})
    assert result["isError"]
    assert "dropEvents" in text_of(result)["error"] and "searchEvents" in text_of(result)["error"]


@pytest.mark.parametrize("arguments", [[], "SELECT 1", 42, True, [{"sql_query": "SELECT 1"}]], ids=repr)
def test_arguments_that_are_not_an_object_are_a_tool_error(functions: dict[str, ModuleType], arguments: Any) -> None:
    result = call(functions["search_events"], "searchEvents", arguments)
    assert result["isError"] and "JSON オブジェクト" in text_of(result)["error"]


def test_no_arguments_at_all_are_an_empty_object(functions: dict[str, ModuleType]) -> None:
    """From the red team: MCP lets a call leave its arguments out; the local server already sent {} for them."""
    assert not call(functions["search_events"], "profileEvents", None)["isError"]


def test_a_misspelt_argument_is_named_with_the_ones_the_tool_takes(functions: dict[str, ModuleType]) -> None:
    error = text_of(call(functions["search_cases"], "searchCases", {"keyword": "損害賠償"}))["error"]
    assert "keyword" in error and "keywords" in error and "court" in error


def test_a_null_argument_counts_as_not_given(functions: dict[str, ModuleType]) -> None:
    with_nulls = call(functions["search_cases"], "searchCases", {"court": "東京地裁", "keywords": None, "sort": None})
    assert not with_nulls["isError"] and text_of(with_nulls) == text_of(
        call(functions["search_cases"], "searchCases", {"court": "東京地裁"})
    )


def test_a_number_as_json_or_as_an_agents_text_is_the_same_number(functions: dict[str, ModuleType]) -> None:
    as_number = text_of(call(functions["search_cases"], "searchCases", {"court": "東京地裁", "limit": 2}))
    as_text = text_of(call(functions["search_cases"], "searchCases", {"court": "東京地裁", "limit": "2"}))
    assert as_number == as_text and len(as_number["results"]) == 2
    huge = text_of(call(functions["search_cases"], "searchCases", {"court": "東京地裁", "limit": 10**400}))
    assert len(huge["results"]) == 4 and "20" in huge["message"]  # clamped to the most, and said


@pytest.mark.parametrize(
    "arguments",
    [
        {"keywords": "損害\ud800賠償"},
        {"keywords": ["損害賠償"] * 10_000},
        {"keywords": {"a": [[[[[[[[[[1]]]]]]]]]]}},
        {"keywords": 709},
        {"limit": 2.5},
        {"limit": float("nan")},
        {"limit": -(10**400)},
        {"sort": True},
        {"court": "東京地裁", "limit": True},  # the red team: read as 1, where an agent's "true" is refused
        {"date_from": {"$gt": "2020-01-01"}},
        {"keywords": "あ" * 2_000_000},
    ],
    ids=range(11),
)
def test_hostile_arguments_get_a_bounded_tool_error(functions: dict[str, ModuleType], arguments: Any) -> None:
    result = call(functions["search_cases"], "searchCases", arguments)
    assert result["isError"] and isinstance(text_of(result)["error"], str)
    assert response_bytes(result) <= BUDGET_BYTES


@pytest.mark.parametrize("arguments", [{"\ud800": "x"}, {"keywords\udfff": 1}], ids=range(2))
def test_a_name_utf8_cannot_carry_gets_a_result_that_can_be_sent(
    functions: dict[str, ModuleType], arguments: Any
) -> None:
    for tool, given in (("searchCases", arguments), ("search\ud800Cases", {})):
        result = call(functions["search_cases"], tool, given)
        assert result["isError"] and "UTF-8" in text_of(result)["error"]
        json.dumps(result, ensure_ascii=False).encode()  # what the runtime does with it


@pytest.mark.parametrize("custom", [{"bedrockAgentCoreToolName": 7}, {"bedrockAgentCoreToolName": ""}])
def test_a_tool_name_that_is_not_a_name_is_a_tool_error(functions: dict[str, ModuleType], custom: Any) -> None:
    context = LambdaContext(client_context=ClientContext(custom=custom))
    result = functions["search_events"].lambda_handler({"sql_query": "SELECT 1"}, context)
    assert result["isError"] and "searchEvents" in text_of(result)["error"]


def test_a_client_context_without_a_tool_name_is_an_agent_event(functions: dict[str, ModuleType]) -> None:
    context = LambdaContext(client_context=ClientContext(custom={"other": "x"}))
    response = functions["search_events"].lambda_handler(load_event("search_events/example.json"), context)
    assert status_of(response) == 200
