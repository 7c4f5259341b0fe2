"""Which door a call came by, decided here alone, and the function that answers it through that door.

Lambda invokes one handler whatever the door. `ActionGroupFunction.answer` asks `door_of` which door's call it is,
lets that door turn the call into an action group event, serves the event (`search_core.doors.bedrock.serve`) and
hands the answer back in the door's shape. A new door is one module with its `Door` (`search_core.doors.door`) and
one entry in DOORS.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any, Protocol

from aws_lambda_powertools.event_handler import BedrockAgentResolver
from aws_lambda_powertools.utilities.typing import LambdaContext

from search_core.doors.bedrock import ActionGroupDoor, serve
from search_core.doors.door import INTERNAL_ERROR, Door, Refused
from search_core.doors.envelope import envelope
from search_core.doors.gateway import GatewayDoor
from search_core.doors.openapi import document_of
from search_core.doors.snapstart import register_hooks
from search_core.doors.tools import Tool, tools_of
from search_core.engine.budget import dumps_body
from search_core.observability import logger, metrics, tracer
from search_core.settings import Settings

# Asked in order, the first to recognise a call takes it; the action group's door takes any, so it comes last.
DOORS: tuple[Door, ...] = (GatewayDoor(), ActionGroupDoor())


def door_of(event: Any, context: LambdaContext) -> Door:
    """The door an invocation came by.

    >>> from types import SimpleNamespace as Context
    >>> type(door_of({"arguments": 1}, Context(client_context=Context(custom={"bedrockAgentCoreToolName": "t"}))))
    <class 'search_core.doors.gateway.GatewayDoor'>
    >>> type(door_of({"apiPath": "/events/search"}, Context(client_context=None)))
    <class 'search_core.doors.bedrock.ActionGroupDoor'>
    """
    return next(door for door in DOORS if door.recognises(event, context))


class Service(Protocol):
    def close(self) -> None:
        """Stop what the service holds open (a worker process, a database connection)."""

    def warm(self) -> None:
        """Make one call, so that the data and what serves it are loaded (before a SnapStart snapshot)."""

    def restored(self) -> None:
        """Check the data again on the next call, and revive what did not survive a SnapStart restore."""


class ActionGroupFunction:
    """One deployed function: its resolver, the service its routes call, and the handler Lambda calls.

    Each functions/<name>/app.py makes one, named `function`, and exposes `app` and `lambda_handler` from it; local
    tooling closes a function through `function.close()` whatever its routes are.
    """

    def __init__(self, app: BedrockAgentResolver, service: Service) -> None:
        self.app = app
        self.service = service
        self.lambda_handler = _observed_handler(self.answer)
        register_hooks(self, Settings.from_env())

    def warm(self) -> None:
        """Before a SnapStart snapshot: the tools as a Gateway reads them (~40 ms), and one call of the service."""
        logger.debug("tools read for the snapshot", tools=len(self.tools))
        self.service.warm()

    def restored(self) -> None:
        self.service.restored()

    @cached_property
    def tools(self) -> dict[str, Tool]:
        """The operations as MCP tools; read from the resolver on the first call that needs them, then kept."""
        return tools_of(document_of(self.app))

    def answer(self, event: Any, context: LambdaContext) -> dict[str, Any]:
        """Serve an invocation, whichever door it came by, with an answer in that door's shape; never raises."""
        door = door_of(event, context)
        try:
            request = door.request(event, context, self)
        except Refused as refused:
            return door.answer(_refusal(422, refused.message))
        except Exception:
            logger.exception("call not translated")
            return door.answer(_refusal(500, INTERNAL_ERROR))
        return door.answer(serve(self.app, request, context))

    def close(self) -> None:
        self.service.close()


def _refusal(status: int, message: str) -> dict[str, Any]:
    """A call refused before any operation saw it, as the action group response a door shapes its answers from."""
    return envelope({}, status, dumps_body({"error": message}))


def _observed_handler(
    answer: Callable[[Any, LambdaContext], dict[str, Any]],
) -> Callable[[dict[str, Any], LambdaContext], dict[str, Any]]:
    # Each invocation starts with no keys of the previous one (a tool call's name must not tag an agent's event).
    @logger.inject_lambda_context(clear_state=True)
    @metrics.log_metrics
    @tracer.capture_lambda_handler
    def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
        return answer(event, context)

    return lambda_handler
