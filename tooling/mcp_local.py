"""The functions as one local MCP server (`make mcp`): every tool of every function of the catalogue, served over
stdio on the bundled sample data, or on the data each `<DATASET>_URI` names.

A tool call runs through the function's own `lambda_handler`, invoked as an AgentCore Gateway invokes it (the
arguments as the event, the tool's name in the client context), so the local server runs the code Lambda runs,
with its validation, guard, deadlines and byte budget.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager, redirect_stdout
from importlib.metadata import version
from types import ModuleType
from typing import Any

import anyio
import mcp_types as types
from anyio.from_thread import BlockingPortal, start_blocking_portal
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from tooling.local import ROOT, close_function, gateway_context, import_function

from search_core.catalogue import ACTION_GROUPS
from search_core.gateway import tool_error, unknown_tool
from search_core.settings import Settings
from search_core.tools import Tool

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
            await server.run(read_stream, write_stream, server.create_initialization_options())
        finally:
            tools.close()


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
