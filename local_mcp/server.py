"""The functions as one local MCP server (`make mcp`): every tool of every function of the catalogue, served over
stdio on the bundled sample data, or on the data each `<DATASET>_URI` names.

A tool call runs through the function's own `lambda_handler`, invoked as an AgentCore Gateway invokes it (the
arguments as the event, the tool's name in the client context), so the local server runs the code Lambda runs,
with its validation, guard, deadlines and byte budget.

The server reads the client's lines itself and bounds each before parsing it (read_message): every request gets an
answer or a JSON-RPC error, and no line ends the server.
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager, redirect_stdout
from importlib.metadata import version
from itertools import accumulate
from types import ModuleType
from typing import Any, BinaryIO

import anyio
import mcp_types as types
from anyio.from_thread import BlockingPortal, start_blocking_portal
from anyio.streams.memory import MemoryObjectSendStream
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from pydantic import ValidationError
from tooling.local import ROOT, close_function, environment, gateway_context, import_function

from search_core.catalogue import ACTION_GROUPS
from search_core.doors.envelope import encodable
from search_core.doors.gateway import tool_error, unknown_tool
from search_core.doors.tools import Tool
from search_core.settings import Settings

SERVER_NAME = PACKAGE = "bedrock-agent-search"
SCRIPT = ROOT / "scripts" / "mcp_server.py"
# Every operation only reads: a client may call any of them without asking its user first.
READ_ONLY = types.ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True)
# How long a call waits for the calls to the same function before it: as long as four of them may take.
QUEUED_CALLS = 4
BUSY = (
    "ローカルの MCP サーバーは同じ関数への呼び出しを 1 つずつ処理します。"
    "先の呼び出しが多く、時間内に順番が来ませんでした。同時に送る呼び出しを減らして再試行してください。"
)
# The variable each function sizes its memory by (search_core.settings).
MEMORY_VARIABLE = "AWS_LAMBDA_FUNCTION_MEMORY_SIZE"

# Bounds on one line from the client, checked before it is parsed. The largest argument of any tool, 20,000
# characters of SQL, takes at most 120 KB even with every character escaped (\uXXXX). A 300 MB line took 8 s and
# 1.8 GB before anything looked at it; refused, it is read past in 0.65 s with the server at 104 MB.
MAX_LINE_BYTES = 1 << 20
# A tool's arguments are flat and the envelope adds three levels; Python's own parser recursed out at ~1,000.
MAX_NESTING = 64
# An id is echoed in the reply: a UUID is 36 characters, and a 100 KB id made a 100 KB reply.
MAX_ID_CHARS = 200
TOO_LONG = f"1 行のメッセージが大きすぎます（上限 {MAX_LINE_BYTES:,} バイト）。引数を短くしてください。"
TOO_DEEP = f"JSON の入れ子（配列・オブジェクト）が深すぎます（上限 {MAX_NESTING} 段）。引数を浅くしてください。"
NOT_JSON = "JSON として読めません。1 行に 1 つの JSON-RPC リクエストを送ってください。"
BATCH = (
    "JSON-RPC のバッチ（配列）には対応していません（MCP 2025-06-18 以降の仕様にはありません）。"
    "リクエストを 1 行に 1 つずつ送ってください。"
)
BAD_ID = (
    f"id は整数か {MAX_ID_CHARS} 文字までの文字列にしてください"
    "（小数・true/false・null・配列・オブジェクトや、UTF-8 で表せない文字は使えません）。"
)
UNREADABLE = (
    "リクエストを読めません。UTF-8 で表せない文字（対になっていないサロゲートなど）を除くか、"
    "JSON-RPC の形式（jsonrpc・id・method・params）を直してください。"
)
# How much of a line past MAX_LINE_BYTES is read at a time to skip it.
_SKIP_BYTES = 1 << 16
# A JSON string, or the rest of a line that leaves one open: brackets inside it are no nesting.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?$)')
# Each bracket as the step it takes in depth, a signed byte: +1 for [ and {, -1 for ] and }.
_DEPTH_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")
_NOT_BRACKETS = bytes(set(range(256)) - set(b"[]{}"))


class LocalTools:
    """The functions, each loaded as Lambda loads it, and their tools by name.

    One call at a time per function, as one Lambda execution environment serves them. A call waits for the one
    before it without holding a thread (the protocol's own reading and writing need them), and gives up after
    as long as QUEUED_CALLS calls may take: where Lambda would start another environment, it says it is busy.

    The functions share the memory of one (AWS_LAMBDA_FUNCTION_MEMORY_SIZE): each is loaded sized by an equal
    share of it, so that their SQL workers, each capped by its function's size, together stay within it.
    """

    def __init__(self, names: Iterable[str] = ACTION_GROUPS) -> None:
        names = list(names)
        settings = Settings.from_env()
        self._functions: dict[str, ModuleType] = {}
        self._turns: dict[str, anyio.Lock] = {}
        self._wait_seconds = QUEUED_CALLS * settings.query_timeout_seconds
        self.tools: dict[str, tuple[str, Tool]] = {}
        try:
            with environment({MEMORY_VARIABLE: str(memory_share(settings.memory_mb, len(names)))}):
                for name in names:
                    self._load(name)
        except BaseException:
            self.close()
            raise

    def _load(self, name: str) -> None:
        self._functions[name] = import_function(name, f"{name}_mcp")
        self._turns[name] = anyio.Lock()
        for tool in self._functions[name].function.tools.values():
            if tool.name in self.tools:
                raise ValueError(f"two functions offer a tool named {tool.name}")
            self.tools[tool.name] = (name, tool)

    def listed(self) -> list[types.Tool]:
        return [
            types.Tool(name=t.name, description=t.description, input_schema=t.input_schema, annotations=READ_ONLY)
            for _, t in self.tools.values()
        ]

    async def call(self, name: str, arguments: Any) -> dict[str, Any]:
        """The tool result the function returns, as the Gateway would pass it on."""
        if name not in self.tools:
            return tool_error(unknown_tool(name, list(self.tools)))
        function = self.tools[name][0]
        turn, waited = self._turns[function], True
        with anyio.move_on_after(self._wait_seconds):
            await turn.acquire()
            waited = False
        if waited:
            return tool_error(BUSY)
        try:
            handler = self._functions[function].lambda_handler
            result: dict[str, Any] = await anyio.to_thread.run_sync(handler, arguments, gateway_context(name))
            return result
        finally:
            turn.release()

    def close(self) -> None:
        for module in self._functions.values():
            close_function(module)
        self._functions.clear()


def memory_share(memory_mb: int, functions: int) -> int:
    """The memory each of `functions` loaded side by side is sized by, for all to fit in `memory_mb`: an equal share,
    but never below the 128 MB a function needs at least (search_core.settings).

    >>> memory_share(1024, 3), memory_share(256, 3)
    (341, 128)
    """
    return max(128, memory_mb // functions)


def mcp_server(tools: LocalTools) -> Server[Any]:
    """An MCP server answering tools/list and tools/call from `tools`."""

    async def list_tools(_: Any, __: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools.listed())

    async def call_tool(_: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        result = await tools.call(params.name, params.arguments or {})
        content: list[types.ContentBlock] = [types.TextContent(text=block["text"]) for block in result["content"]]
        return types.CallToolResult(content=content, is_error=result["isError"])

    return Server(SERVER_NAME, version=version(PACKAGE), on_list_tools=list_tools, on_call_tool=call_tool)


async def serve_stdio() -> None:
    """Serve until the client closes stdin. The functions load once stdout is claimed for the protocol, and print
    (Powertools' metrics do) to stderr: the claim moves file descriptor 1, but sys.stdout's buffer would reach the
    wire when it is flushed at exit. The client's lines are read here, not by the SDK, which would hold a line of
    any length and parse it at any depth (see read_message)."""
    wire = _claim_stdin()
    async with stdio_server(stdin=anyio.wrap_file(io.StringIO())) as (_, write_stream), _printing_to_stderr():
        tools = LocalTools()
        try:
            server = mcp_server(tools)
            messages, received = anyio.create_memory_object_stream[SessionMessage | Exception]()
            async with anyio.create_task_group() as group:
                group.start_soon(_reading, wire, messages, write_stream)
                await server.run(received, write_stream, server.create_initialization_options())
        finally:
            tools.close()


def _claim_stdin() -> BinaryIO:
    """The client's stream, on a descriptor of its own; fd 0 then reads the null device (as the SDK's own claim
    would have it), so that nothing else in the process or its children reads the protocol."""
    wire = os.dup(0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    return os.fdopen(wire, "rb")


async def _reading(wire: BinaryIO, messages: MemoryObjectSendStream[SessionMessage | Exception], replies: Any) -> None:
    """Pass on each message the client sends, and answer each line that is refused at once."""
    async with messages:
        while (line := await anyio.to_thread.run_sync(next_line, wire)) is not None:
            read = read_message(line)
            if isinstance(read, SessionMessage):
                await messages.send(read)
            elif read is not None:
                await replies.send(SessionMessage(read))


def next_line(wire: BinaryIO) -> bytes | None:
    """The client's next line, None once it has closed its end. Of a line longer than MAX_LINE_BYTES only the first
    MAX_LINE_BYTES + 1 bytes are kept and the rest is read past, so that refusing it takes no memory."""
    line = end = wire.readline(MAX_LINE_BYTES + 1)
    while end and not end.endswith(b"\n"):
        end = wire.readline(_SKIP_BYTES)
    return line or None


def read_message(line: bytes) -> SessionMessage | types.JSONRPCError | None:
    """What one line from the client asks: the message to serve, the error that refuses it (with id null unless the
    line is a request whose id is known), or None when nothing is to be answered (a blank line).

    The SDK left the client waiting for ever on a line it could not read, and read a request whose id it does not
    take (1.5, true, {}) as a notification, which no one answers.

    >>> read_message(b'[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]').error.message == BATCH
    True
    """
    if not line.strip():
        return None
    if len(line.rstrip(b"\n")) > MAX_LINE_BYTES:
        return refusal(TOO_LONG)
    if nesting_depth(line) > MAX_NESTING:
        return refusal(TOO_DEEP)
    text = line.decode("utf-8", errors="replace")
    try:
        found = json.loads(text)
    except ValueError:
        return refusal(NOT_JSON, types.PARSE_ERROR)
    return _message(found, text)


def _message(found: Any, text: str) -> SessionMessage | types.JSONRPCError | None:
    """The message of `text`, parsed as `found`, if the SDK reads it and its id can be echoed; else its refusal.
    A client's answer (it has a result or an error) is never answered, whatever it holds."""
    if isinstance(found, list):
        return refusal(BATCH)
    if not isinstance(found, dict):
        return refusal(UNREADABLE)
    answer = "method" not in found and not {"result", "error"}.isdisjoint(found)
    if not answer and "id" in found and not echoable_id(found["id"]):
        return refusal(BAD_ID)
    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_json(text, by_name=False))
    except ValidationError:
        return None if answer else refusal(UNREADABLE, request_id=found.get("id"))


def refusal(message: str, code: int = types.INVALID_REQUEST, request_id: int | str | None = None) -> types.JSONRPCError:
    return types.JSONRPCError(jsonrpc="2.0", id=request_id, error=types.ErrorData(code=code, message=message))


def echoable_id(value: Any) -> bool:
    """Whether a reply may carry `value` as its id: an integer or a string of at most MAX_ID_CHARS that UTF-8 holds.

    >>> [echoable_id(value) for value in (7, "call-7", 1.5, True, None, {}, [], "\\ud800", "x" * 201)]
    [True, True, False, False, False, False, False, False, False]
    """
    fits = isinstance(value, int | str) and not isinstance(value, bool) and len(str(value)) <= MAX_ID_CHARS
    return fits and encodable(value)


def nesting_depth(line: bytes) -> int:
    """How deep the JSON on `line` nests arrays and objects, told without parsing it (a parser recurses as deep):
    the most brackets open at once outside its strings.

    >>> nesting_depth(b'{"a": [[1], "]]][{"]}'), nesting_depth(b"[" * 5), nesting_depth(b'"[[" 1')
    (3, 5, 0)
    """
    steps = _STRING.sub(b"", line).translate(_DEPTH_STEPS, _NOT_BRACKETS)
    return max(accumulate(memoryview(steps).cast("b")), default=0)


@asynccontextmanager
async def _printing_to_stderr() -> AsyncIterator[None]:
    with redirect_stdout(sys.stderr):
        yield


class StdioClient:
    """A blocking MCP client (the SDK's) of the local server it starts as `make mcp` does, for tests and scripts.

    Its results have the Gateway's shape, `{"content": [{"type": "text", "text": ...}], "isError": ...}`.
    """

    def __init__(self, portal: BlockingPortal, client: Client) -> None:
        self._portal = portal
        self._client = client

    def list_tools(self) -> list[types.Tool]:
        return self._portal.call(self._client.list_tools).tools

    def call_tool(self, name: str, arguments: Any) -> dict[str, Any]:
        result = self._portal.call(self._client.call_tool, name, arguments)
        content = [{"type": "text", "text": b.text} for b in result.content if isinstance(b, types.TextContent)]
        return {"content": content, "isError": result.is_error}


@contextmanager
def stdio_client(env: dict[str, str]) -> Iterator[StdioClient]:
    """The local server started with exactly `env` (plus PATH), and a client connected to it."""
    server = StdioServerParameters(command=sys.executable, args=[str(SCRIPT)], env=env, cwd=ROOT)
    with start_blocking_portal() as portal, portal.wrap_async_context_manager(Client(server)) as client:
        yield StdioClient(portal, client)
