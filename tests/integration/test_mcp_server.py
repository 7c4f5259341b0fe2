"""`make mcp`, as an MCP client runs it (README's configuration): the SDK's client lists every tool of every function
and calls each, and nothing but the protocol reaches the server's stdout."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from anyio.from_thread import start_blocking_portal
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from tooling.local import ROOT, example_arguments
from tooling.mcp_local import SCRIPT, StdioClient, stdio_client
from tooling.template import generated

from search_core.catalogue import ACTION_GROUPS
from search_core.tools import Tool


@pytest.fixture(scope="module")
def tools() -> dict[str, tuple[str, Tool]]:
    """Every tool of the catalogue's functions, by name, with the function that offers it."""
    return {
        tool.name: (name, tool) for name, group in ACTION_GROUPS.items() for tool in generated(group).tools.values()
    }


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StdioClient]:
    """The SDK's client of `make -s -C <repo> mcp`, exactly as README configures an MCP client."""
    env = {"PATH": os.environ["PATH"], "DATA_CACHE_DIR": str(tmp_path_factory.mktemp("cache"))}
    server = StdioServerParameters(command="make", args=["-s", "-C", str(ROOT), "mcp"], env=env, cwd="/")
    with start_blocking_portal() as portal, portal.wrap_async_context_manager(Client(server)) as connected:
        yield StdioClient(portal, connected)


def test_the_client_lists_every_tool_as_the_functions_describe_it(
    client: StdioClient, tools: dict[str, tuple[str, Tool]]
) -> None:
    listed = {tool.name: tool for tool in client.list_tools()}
    assert list(listed) == list(tools)
    for name, (_, tool) in tools.items():
        assert listed[name].description == tool.description
        assert listed[name].input_schema == tool.input_schema
        assert listed[name].annotations is not None and listed[name].annotations.read_only_hint


def test_the_client_calls_each_tool_and_gets_its_answer(
    client: StdioClient, tools: dict[str, tuple[str, Tool]]
) -> None:
    for name, (function, tool) in tools.items():
        result = client.call_tool(name, example_arguments(function, tool.path, tool.method))
        assert not result["isError"], (name, result)
        assert "error" not in json.loads(result["content"][0]["text"])


def test_a_failing_call_is_a_tool_error_the_model_reads(client: StdioClient) -> None:
    result = client.call_tool("searchEvents", {"sql_query": "DROP TABLE events"})
    assert result["isError"] and "SELECT" in json.loads(result["content"][0]["text"])["error"]
    unknown = client.call_tool("deleteEvents", {})
    assert unknown["isError"] and "searchEvents" in json.loads(unknown["content"][0]["text"])["error"]


INITIALIZE = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize",
     "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
]  # fmt: skip


def raw_session(lines: list[str], answers: int, tmp_path: Path) -> tuple[list[dict[str, Any]], str, str]:
    """The server fed `lines` (after initialize) as a client would: its first `answers` replies, whatever else
    reached its stdout once stdin closed, and its stderr."""
    env = {"PATH": os.environ["PATH"], "DATA_CACHE_DIR": str(tmp_path), "POWERTOOLS_LOG_LEVEL": "INFO"}
    with (tmp_path / "stderr").open("w+") as stderr:
        server = subprocess.Popen(
            [sys.executable, str(SCRIPT)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            env=env,
        )
        assert server.stdin is not None and server.stdout is not None
        server.stdin.write("".join([*(json.dumps(m) + "\n" for m in INITIALIZE), *(line + "\n" for line in lines)]))
        server.stdin.flush()
        out: queue.Queue[str] = queue.Queue()  # read apart, so that a reply that never comes fails, not hangs
        reader = threading.Thread(target=lambda: [out.put(line) for line in server.stdout or []], daemon=True)
        reader.start()
        replies = [json.loads(out.get(timeout=60)) for _ in range(answers)]  # it stops when stdin closes
        server.stdin.close()
        assert server.wait(timeout=60) == 0
        reader.join(timeout=10)
        stderr.seek(0)
        return replies, "".join(out.queue), stderr.read()


def test_nothing_but_the_protocol_reaches_stdout(tmp_path: Path) -> None:
    """Logs and metrics print too: a stray line on stdout would break the client's stream."""
    calls = [
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
         "params": {"name": "searchEvents", "arguments": {"sql_query": "SELECT count(*) AS n FROM events"}}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
         "params": {"name": "searchCases", "arguments": {"keywords": "損害賠償"}}},
    ]  # fmt: skip
    replies, rest, logged = raw_session([json.dumps(call) for call in calls], 3, tmp_path)
    assert sorted(reply["id"] for reply in replies) == [1, 2, 3] and rest == ""  # the answers, and nothing else
    assert '"_aws"' in logged and "case search" in logged  # the metrics and logs went to stderr


def test_a_request_the_sdk_cannot_read_still_gets_an_answer(tmp_path: Path) -> None:
    """From the red team: the SDK drops a line it cannot validate, so the client waited for ever."""
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "searchEvents", "arguments": {}}}
    surrogate = json.dumps(call)[:-3] + '"sql_query": "SELECT \'\\ud800\'"}}}'  # JSON's escape of a lone surrogate
    lines = [surrogate, '{"jsonrpc":"2.0","id":"three"}', "not json", '{"jsonrpc":"2.0","id":4,"method":"ping"}']
    replies, rest, _ = raw_session(lines, 4, tmp_path)
    by_id = {reply["id"]: reply for reply in replies}
    assert by_id[2]["error"]["code"] == by_id["three"]["error"]["code"] == -32600
    assert "UTF-8" in by_id[2]["error"]["message"] and by_id[4]["result"] == {} and rest == ""


def test_calls_queued_behind_slow_ones_end_busy_and_other_functions_still_answer(tmp_path: Path) -> None:
    """From the red team: 40 slow calls at once used to take every thread, so the server answered nothing else for
    a minute. Now a call waits for its function without a thread, and gives up after as long as four calls take."""
    env = {"PATH": os.environ["PATH"], "DATA_CACHE_DIR": str(tmp_path), "QUERY_TIMEOUT_SECONDS": "1"}
    slow = {"sql_query": "SELECT count(*) FROM range(100000000000)"}
    with stdio_client(env) as client, ThreadPoolExecutor(max_workers=12) as pool:
        queued = [pool.submit(client.call_tool, "searchEvents", slow) for _ in range(10)]
        other = pool.submit(client.call_tool, "searchCases", {"keywords": "損害賠償"})
        errors = [json.loads(future.result()["content"][0]["text"])["error"] for future in queued]
        assert not other.result()["isError"]
    assert any("1 つずつ処理します" in error for error in errors)  # ten at ~1 s each: the last ones waited too long
    assert all("中断しました" in error or "1 つずつ" in error for error in errors), errors
