"""The doors a call comes in by, as tests and benchmarks call them: one class each, listed once in DOORS, so that a
test parametrised by DOORS runs through every door and a new door is one class and one entry here.

- the action group (`AgentDoor`): the real event an agent sends (events/search_events/free_events.json) for that
  operation, into lambda_handler;
- the AgentCore Gateway (`GatewayDoor`): the arguments as the event and the tool's name in the client context, into
  lambda_handler;
- the local MCP server (`McpDoor`): the SDK's client over stdio to `make mcp`'s server (a separate process).

Each opens with `serving(names, tag, cache_dir, **env)` and calls a tool with `call(group, tool, arguments)`;
`reply_of` reads what any of them returns.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar, Protocol, Self

from local_mcp.server import StdioClient, stdio_client
from tooling.local import LambdaContext, body_of, gateway_context, load_event, sample_functions, status_of

from search_core.doors.gateway import action_event


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
    name: ClassVar[str]
    # Whether the functions run in this process, where an in-process fake of AWS (moto's mock_aws) reaches them.
    in_process: ClassVar[bool]

    @classmethod
    def serving(cls, names: Iterable[str], tag: str, cache_dir: Path, **env: str) -> AbstractContextManager[Door]:
        """The door to functions `names` on the sample data (or what `env`'s *_URI name), caching in `cache_dir`."""
        ...

    def call(self, group: str, tool: str, arguments: dict[str, Any]) -> dict[str, Any]: ...


class _InProcessDoor:
    """A door to functions imported into this process, each by its module (functions/<group>/app.py)."""

    name: ClassVar[str]
    in_process: ClassVar[bool] = True

    def __init__(self, functions: dict[str, ModuleType]) -> None:
        self.functions = functions

    @classmethod
    @contextmanager
    def serving(cls, names: Iterable[str], tag: str, cache_dir: Path, **env: str) -> Iterator[Self]:
        with sample_functions(names, f"{tag}_{cls.name.replace(' ', '_')}", cache_dir, **env) as loaded:
            yield cls(loaded)


class AgentDoor(_InProcessDoor):
    name = "action group"

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


class GatewayDoor(_InProcessDoor):
    name = "gateway"

    def call(self, group: str, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        result: dict[str, Any] = self.functions[group].lambda_handler(arguments, gateway_context(tool))
        return result


class McpDoor:
    name: ClassVar[str] = "local MCP"
    in_process: ClassVar[bool] = False

    def __init__(self, client: StdioClient) -> None:
        self.client = client

    @classmethod
    @contextmanager
    def serving(cls, names: Iterable[str], tag: str, cache_dir: Path, **env: str) -> Iterator[Self]:
        """The local MCP server is its own process and serves every function, whatever `names`."""
        with stdio_client({"PATH": os.environ["PATH"], "DATA_CACHE_DIR": str(cache_dir), **env}) as client:
            yield cls(client)

    def call(self, group: str, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return self.client.call_tool(tool, arguments)


DOORS: tuple[type[Door], ...] = (AgentDoor, GatewayDoor, McpDoor)
# Every door but an agent's own event: for tests whose cases already go to lambda_handler as agents' events.
TOOL_DOORS = tuple(door for door in DOORS if door is not AgentDoor)


def door_name(door: type[Door]) -> str:
    """A door's name, as a test's id shows it (pytest would show its class's)."""
    return door.name
