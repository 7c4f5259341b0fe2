"""Logs carry the SQL, the counts and the request keys, never row contents; metrics count what matters."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pytest
from tooling.local import ClientContext, LambdaContext, sql_event

from search_core.observability import logger


def records(output: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


@pytest.fixture
def events_fn(load_function: Callable[..., ModuleType]) -> Iterator[ModuleType]:
    function = load_function("search_events")
    level = logger.log_level
    logger.setLevel("INFO")
    yield function
    logger.setLevel(level)


@pytest.fixture
def log_output(events_fn: ModuleType) -> Iterator[io.StringIO]:
    """The JSON lines the Powertools logger writes (to stdout in Lambda)."""
    stream = io.StringIO()
    previous = logger.registered_handler.setStream(stream)
    yield stream
    logger.registered_handler.setStream(previous)


def test_logs_hold_the_sql_and_counts_but_no_row_contents(
    events_fn: ModuleType, lambda_context: LambdaContext, log_output: io.StringIO
) -> None:
    sql = "SELECT event_name, description FROM events WHERE event_name LIKE '%マルシェ%'"
    events_fn.lambda_handler(sql_event("search_events", sql), lambda_context)
    output = log_output.getvalue()
    answered = [r for r in records(output) if r.get("message") == "query answered"]
    assert answered and answered[0]["sql"] == sql and answered[0]["rows"] == 1
    assert answered[0]["sessionId"] == "123456789012345"
    assert answered[0]["actionGroup"] == "search_events" and answered[0]["apiPath"] == "/events/search"
    assert "全国の生産者が集まる" not in output  # the matching row's description


def test_metrics_count_rejections_and_truncations(
    events_fn: ModuleType, lambda_context: LambdaContext, capsys: pytest.CaptureFixture[str]
) -> None:
    events_fn.lambda_handler(sql_event("search_events", "DROP TABLE events"), lambda_context)
    events_fn.lambda_handler(sql_event("search_events", "SELECT * FROM events"), lambda_context)
    emitted = [r for r in records(capsys.readouterr().out) if "_aws" in r]
    names = {m["Name"] for r in emitted for m in r["_aws"]["CloudWatchMetrics"][0]["Metrics"]}
    assert {
        "RejectedQueries",
        "TruncatedResults",
        "RowsReturned",
        "QueryLatency",
        "DataReloads",
        "DataLoadTime",
    } <= names


def test_a_tool_call_is_logged_with_the_gateways_ids_and_counted(
    events_fn: ModuleType, log_output: io.StringIO, capsys: pytest.CaptureFixture[str]
) -> None:
    custom = {
        "bedrockAgentCoreToolName": "events___searchEvents",
        "bedrockAgentCoreAwsRequestId": "req-1",
        "bedrockAgentCoreGatewayId": "gw-abc",
        "bedrockAgentCoreTargetId": "T1",
        "bedrockAgentCoreMcpMessageId": "7",
    }
    context = LambdaContext(client_context=ClientContext(custom=custom))
    events_fn.lambda_handler({"sql_query": "SELECT count(*) AS n FROM events"}, context)
    [answered] = [r for r in records(log_output.getvalue()) if r.get("message") == "query answered"]
    assert answered["tool"] == "searchEvents" and answered["actionGroup"] == "agentcore-gateway"
    assert (answered["gatewayRequestId"], answered["gatewayId"], answered["gatewayTargetId"]) == (
        "req-1",
        "gw-abc",
        "T1",
    )
    events_fn.lambda_handler(sql_event("search_events", "SELECT 1 AS n"), LambdaContext())
    [agents] = [r for r in records(log_output.getvalue()) if r.get("message") == "query answered"][1:]
    assert "tool" not in agents and "gatewayId" not in agents  # the next agent event carries none of them
    emitted = [r for r in records(capsys.readouterr().out) if "_aws" in r]
    assert any("ToolCalls" in r for r in emitted)
