"""The functions as one local MCP server (`make mcp`): every tool of every function of the catalogue, served over
stdio on the bundled sample data, or on the data each `<DATASET>_URI` names.

A tool call runs through the function's own `lambda_handler`, invoked as an AgentCore Gateway invokes it (the
arguments as the event, the tool's name in the client context), so the local server runs the code Lambda runs,
with its validation, guard, deadlines and byte budget.
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager, redirect_stdout
from importlib.metadata import version
from types import ModuleType
from typing import Any

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
from tooling.local import ROOT, close_function, gateway_context, import_function

from search_core.catalogue import ACTION_GROUPS
from search_core.gateway import tool_error, unknown_tool
from search_core.responses import encodable
from search_core.settings import Settings
from search_core.tools import Tool

SERVER_NAME = PACKAGE = "bedrock-agent-search"
UNREADABLE = (
    "リクエストを読めません。UTF-8 で表せない文字（対になっていないサロゲートなど）を除くか、"
    "JSON-RPC の形式（jsonrpc・id・method・params）を直してください。"
)
SCRIPT = ROOT / "scripts" / "mcp_server.py"
# Every operation only reads: a client may call any of them without asking its user first.
READ_ONLY = types.ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True)
# How long a call waits for the calls to the same function before it: as long as four of them may take.
QUEUED_CALLS = 4
BUSY = (
    "ローカルの MCP サーバーは同じ関数への呼び出しを 1 つずつ処理します。"
    "先の呼び出しが多く、時間内に順番が来ませんでした。同時に送る呼び出しを減らして再試行してください。"
)


class LocalTools:
    """The functions, each loaded as Lambda loads it, and their tools by name.

    One call at a time per function, as one Lambda execution environment serves them. A call waits for the one
    before it without holding a thread (the protocol's own reading and writing need them), and gives up after
    as long as QUEUED_CALLS calls may take: where Lambda would start another environment, it says it is busy.
    """

    def __init__(self, names: Iterable[str] = ACTION_GROUPS) -> None:
        self._functions: dict[str, ModuleType] = {}
        self._turns: dict[str, anyio.Lock] = {}
        self._wait_seconds = QUEUED_CALLS * Settings.from_env().query_timeout_seconds
        self.tools: dict[str, tuple[str, Tool]] = {}
        try:
            for name in names:
                self._functions[name] = import_function(name, f"{name}_mcp")
                self._turns[name] = anyio.Lock()
                for tool in self._functions[name].function.tools.values():
                    if tool.name in self.tools:
                        raise ValueError(f"two functions offer a tool named {tool.name}")
                    self.tools[tool.name] = (name, tool)
        except BaseException:
            self.close()
            raise

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


def mcp_server(tools: LocalTools) -> Server[Any]:
    """An MCP server answering tools/list and tools/call from `tools`."""

    async def list_tools(_: Any, __: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=tools.listed())

    async def call_tool(_: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        result = await tools.call(params.name, params.arguments or {})
        content = [types.TextContent(text=block["text"]) for block in result["content"]]
        return types.CallToolResult(content=content, is_error=result["isError"])

    return Server(SERVER_NAME, version=version(PACKAGE), on_list_tools=list_tools, on_call_tool=call_tool)


async def serve_stdio() -> None:
    """Serve until the client closes stdin. The functions load once stdout is claimed for the protocol, and print
    (Powertools' metrics do) to stderr: the claim moves file descriptor 1, but sys.stdout's buffer would reach the
    wire when it is flushed at exit."""
    async with stdio_server() as (read_stream, write_stream), _printing_to_stderr():
        tools = LocalTools()
        try:
            server = mcp_server(tools)
            readable, readable_out = anyio.create_memory_object_stream[SessionMessage | Exception]()
            async with anyio.create_task_group() as group:
                group.start_soon(_answering_unreadable, read_stream, readable, write_stream)
                await server.run(readable_out, write_stream, server.create_initialization_options())
        finally:
            tools.close()


async def _answering_unreadable(
    incoming: AsyncIterable[SessionMessage | Exception],
    forward: MemoryObjectSendStream[SessionMessage | Exception],
    replies: Any,
) -> None:
    """Pass every message on, and answer a request the SDK could not read but whose id is known.

    The SDK drops a line it cannot validate, so its client would wait for ever: a lone surrogate escaped in any
    string (which a Gateway's call gets a tool error for), or a request without its method.
    """
    async with forward:
        async for item in incoming:
            request_id = unreadable_request_id(item) if isinstance(item, Exception) else None
            if request_id is None:
                await forward.send(item)
                continue
            error = types.ErrorData(code=types.INVALID_REQUEST, message=UNREADABLE)
            await replies.send(SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=request_id, error=error)))


def unreadable_request_id(error: Exception) -> str | int | None:
    """The id of a request in a line the SDK could not validate, when the line still parses as JSON and names one.

    >>> import mcp_types as types
    >>> try:
    ...     types.jsonrpc_message_adapter.validate_json('{"jsonrpc":"2.0","id":7,"method":"ping","params":"\\ud800"}')
    ... except ValueError as error:
    ...     unreadable_request_id(error)
    7
    """
    if not isinstance(error, ValidationError):
        return None
    for detail in error.errors():
        found = detail.get("input")
        if isinstance(found, str):
            try:
                found = json.loads(found)
            except ValueError:
                continue
        if isinstance(found, dict) and not {"result", "error"} & found.keys():  # a request, not a client's answer
            request_id = found.get("id")
            if isinstance(request_id, int | str) and not isinstance(request_id, bool) and encodable(request_id):
                return request_id
    return None


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
