"""The three doors a call comes in by, each as `call(group, tool, arguments)`, so a test can run through all of them:

- the action group: the real event an agent sends (events/search_events/free_events.json) for that operation;
- the AgentCore Gateway: the arguments as the event and the tool's name in the client context, into lambda_handler;
- the local MCP server: the SDK's client over stdio to `make mcp`'s server (a separate process).

`reply_of` reads what any of them returns.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Protocol

from local_mcp.server import StdioClient
from tooling.local import LambdaContext, body_of, gateway_context, load_event, status_of

from search_core.doors.gateway import action_event

DOORS = ("action group", "gateway", "local MCP")


@dataclass(frozen=True)
class Reply:
    """What a door returned, whatever its shape: whether it is an answer (not an error), and the body."""

    ok: bool
    body: Any


def reply_of(response: dict[str, Any]) -> Reply:
    if "response" in response:  # an action group response
        return Reply(status_of(response) == 200, body_of(response))
    return Reply(not response["isError"], json.loads(response["content"][0]["text"]))


class Door(Protocol):
    name: str

    def call(self, group: str, tool: str, arguments: dict[str, Any]) -> dict[str, Any]: ...


class AgentDoor:
    name = "action group"

    def __init__(self, functions: dict[str, ModuleType]) -> None:
        self.functions = functions

    def call(self, group: str, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        response: dict[str, Any] = self.functions[group].lambda_handler(
            self.event(group, tool, arguments), LambdaContext()
        )
        return response

    def event(self, group: str, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """The real event an agent sends (its session, its attributes) to call `tool` of `group`."""
        event = load_event("search_events/free_events.json")
        event.pop("requestBody")
        event.update(action_event(self.functions[group].function.tools, tool, arguments), actionGroup=group)
        return event


class GatewayDoor:
    name = "gateway"

    def __init__(self, functions: dict[str, ModuleType]) -> None:
        self.functions = functions

    def call(self, group: str, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        result: dict[str, Any] = self.functions[group].lambda_handler(arguments, gateway_context(tool))
        return result


class McpDoor:
    name = "local MCP"

    def __init__(self, client: StdioClient) -> None:
        self.client = client

    def call(self, group: str, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return self.client.call_tool(tool, arguments)
