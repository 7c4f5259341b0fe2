"""`make mcp`, as an MCP client runs it (configured as docs/doors.md says): the SDK's client lists every tool of every
function and calls each, and nothing but the protocol reaches the server's stdout."""

from __future__ import annotations

import json
import os
import queue
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO, Any

import pytest
from anyio.from_thread import start_blocking_portal
from local_mcp.server import MAX_LINE_BYTES, MAX_NESTING, SCRIPT, StdioClient, stdio_client
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from tooling.local import ROOT, example_arguments
from tooling.template import generated

from search_core.catalogue import ACTION_GROUPS
from search_core.doors.tools import Tool


@pytest.fixture(scope="module")
def tools() -> dict[str, tuple[str, Tool]]:
    """Every tool of the catalogue's functions, by name, with the function that offers it."""
    return {
        tool.name: (name, tool) for name, group in ACTION_GROUPS.items() for tool in generated(group).tools.values()
    }


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StdioClient]:
    """The SDK's client of `make -s -C <repo> mcp`, exactly as docs/doors.md configures an MCP client."""
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
        # Read apart and from the start, so that a reply that never comes fails, not hangs, and a long one cannot
        # fill the pipe while the lines are still being written.
        out: queue.Queue[str] = queue.Queue()
        reader = threading.Thread(target=_read_to_end, args=(server.stdout, out), daemon=True)
        reader.start()
        server.stdin.write("".join([*(json.dumps(m) + "\n" for m in INITIALIZE), *(line + "\n" for line in lines)]))
        server.stdin.flush()
        replies = [_next_reply(out) for _ in range(answers)]  # it stops when stdin closes
        server.stdin.close()
        assert server.wait(timeout=60) == 0
        reader.join(timeout=10)
        stderr.seek(0)
        return replies, "".join(out.queue), stderr.read()


def _read_to_end(stdout: IO[str], out: queue.Queue[str]) -> None:
    for line in stdout:
        out.put(line)
    out.put("")  # the server closed its stdout


def _next_reply(out: queue.Queue[str]) -> dict[str, Any]:
    line = out.get(timeout=60)
    assert line, "the server ended before it answered"
    reply: dict[str, Any] = json.loads(line)
    return reply


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
    lines = [surrogate, '{"jsonrpc":"2.0","id":"three"}', '{"jsonrpc":"2.0","id":4,"method":"ping"}']
    replies, rest, _ = raw_session(lines, 4, tmp_path)
    by_id = {reply["id"]: reply for reply in replies}
    assert by_id[2]["error"]["code"] == by_id["three"]["error"]["code"] == -32600
    assert "UTF-8" in by_id[2]["error"]["message"] and by_id[4]["result"] == {} and rest == ""


PING = '{"jsonrpc":"2.0","id":2,"method":"ping"}'


def refused(replies: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The errors of the replies that answer a request whose id could not be known (id null), in the lines' order."""
    return [reply["error"] for reply in replies if reply["id"] is None]


def test_a_line_that_is_not_json_gets_a_parse_error(tmp_path: Path) -> None:
    replies, rest, _ = raw_session(["not json", PING], 3, tmp_path)
    assert [error["code"] for error in refused(replies)] == [-32700]
    assert {reply["id"] for reply in replies} == {None, 1, 2} and rest == ""


def test_json_that_is_no_request_object_is_refused(tmp_path: Path) -> None:
    """From the red team: a line holding only an escaped lone surrogate (or any JSON but an object) got no answer."""
    replies, rest, _ = raw_session(['"\\ud800"', "5", "null", '{"jsonrpc":"2.0"}', PING], 6, tmp_path)
    assert [error["code"] for error in refused(replies)] == [-32600] * 4
    assert {reply["id"] for reply in replies} == {None, 1, 2} and rest == ""


def test_a_batch_is_refused(tmp_path: Path) -> None:
    """From the red team: the SDK dropped a JSON-RPC batch (an array), which MCP no longer has, without a word."""
    batch = json.dumps([{"jsonrpc": "2.0", "id": 3, "method": "ping"}, {"jsonrpc": "2.0", "id": 4, "method": "ping"}])
    replies, rest, _ = raw_session([batch, PING], 3, tmp_path)
    [error] = refused(replies)
    assert error["code"] == -32600 and "バッチ" in error["message"]
    assert {reply["id"] for reply in replies} == {None, 1, 2} and rest == ""


def test_a_request_whose_id_cannot_be_echoed_is_refused_with_id_null(tmp_path: Path) -> None:
    """From the red team: the SDK read a request with an id it does not take as a notification, which no one answers,
    and echoed a 100 KB id in a 100 KB reply."""
    ids: list[Any] = [1.5, True, {}, [], None, "\ud800", "x" * 100_000]
    lines = [json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "ping"}) for request_id in ids]
    replies, rest, _ = raw_session([*lines, PING], 2 + len(ids), tmp_path)
    assert [(error["code"], "id" in error["message"]) for error in refused(replies)] == [(-32600, True)] * len(ids)
    assert {reply["id"] for reply in replies} == {None, 1, 2} and rest == ""
    assert max(len(json.dumps(reply)) for reply in replies) < 1_000


def test_arguments_nested_too_deep_are_refused_and_the_server_lives_on(tmp_path: Path) -> None:
    """From the red team: arguments nested 1,000 deep raised RecursionError, and the server exited."""
    call = '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"searchEvents","arguments":{"sql_query":'
    replies, rest, _ = raw_session([call + "[" * 1_000 + "]" * 1_000 + "}}}", PING], 3, tmp_path)
    [error] = refused(replies)
    assert error["code"] == -32600 and f"{MAX_NESTING} 段" in error["message"]
    assert {reply["id"] for reply in replies} == {None, 1, 2} and rest == ""


def test_a_line_over_the_limit_is_refused_and_the_next_one_answered(tmp_path: Path) -> None:
    """From the red team: one 300 MB line took 8 s and 1.8 GB before the SDK even looked at it."""
    sql = "SELECT '" + "x" * MAX_LINE_BYTES + "'"
    call = {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
            "params": {"name": "searchEvents", "arguments": {"sql_query": sql}}}  # fmt: skip
    replies, rest, _ = raw_session([json.dumps(call), PING], 3, tmp_path)
    [error] = refused(replies)
    assert error["code"] == -32600 and f"{MAX_LINE_BYTES:,} バイト" in error["message"]
    assert {reply["id"] for reply in replies} == {None, 1, 2} and rest == ""


@pytest.mark.slow
def test_the_sql_workers_together_stay_within_one_functions_memory(tmp_path: Path) -> None:
    """From the red team: this query sent to both SQL functions at once took the server's processes to 1.8 GB with
    1,024 MB set, each function's worker capped as if it ran alone. Now each function has its share."""
    memory = {"AWS_LAMBDA_FUNCTION_MEMORY_SIZE": "1024", "QUERY_TIMEOUT_SECONDS": "120"}  # stopped for memory, not time
    env = {"PATH": os.environ["PATH"], "DATA_CACHE_DIR": str(tmp_path), **memory}
    huge = {"sql_query": "SELECT length(repeat('x', 800000000)) AS n"}
    with stdio_client(env) as client, ThreadPoolExecutor(max_workers=2) as pool:
        answers = list(pool.map(lambda tool: client.call_tool(tool, huge), ["searchEvents", "searchStores"]))
    texts = [answer["content"][0]["text"] for answer in answers]
    caps = [re.search(r"メモリ上限（(?:約 )?([\d,]+) MB）", text) for text in texts]
    assert all(caps), texts  # each was stopped for memory: neither may hold the 800 MB
    assert sum(int(cap.group(1).replace(",", "")) for cap in caps if cap) <= 1024, texts


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
