"""A scripted model behind each agent platform, calling our real functions: what tooling/fake_aws.py streams back.

Each question gets the script's next `Turn`: its tool calls, run when the stream reaches them, then its answer.
- The harness calls a tool through the Gateway door: the arguments as the event and `<target>___<tool>` in the
  client context, into lambda_handler; the stream carries the call and the tool result as InvokeHarness blocks.
- The classic agent calls it through its action group: the real event an agent sends (tooling/doors.py); the trace
  carries the invocation input (apiPath, verb, parameters, request body) and the observation (the body's text).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from tooling.doors import AgentDoor
from tooling.eventstream import event_message, exception_message
from tooling.local import LambdaContext, gateway_context
from tooling.template import target_name

from search_core.catalogue import ACTION_GROUPS


@dataclass(frozen=True)
class ToolStep:
    """A call the model makes: `tool` (an operationId) of the function serving action group `group`."""

    group: str
    tool: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class Turn:
    """The model's answer to one question. A `fault` (an exception's name) ends the stream after the tool calls; `stop`
    is the harness's reason for ending its last message."""

    steps: tuple[ToolStep, ...] = ()
    answer: str = ""
    fault: str | None = None
    stop: str = "end_turn"


@dataclass
class ScriptedModel:
    functions: dict[str, ModuleType]
    turns: list[Turn] = field(default_factory=list)

    def harness_stream(self) -> Iterator[bytes]:
        turn = self.turns.pop(0)
        for number, step in enumerate(turn.steps):
            yield from self._harness_tool_call(f"tooluse_{number}", step)
        if turn.fault is not None:
            yield exception_message(turn.fault, "the scripted model failed")
            return
        yield from _harness_message("assistant", [{"text": piece} for piece in _halves(turn.answer)], turn.stop)
        yield event_message(
            "metadata", {"usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2}, "metrics": {"latencyMs": 1}}
        )

    def _harness_tool_call(self, tool_use_id: str, step: ToolStep) -> Iterator[bytes]:
        target = target_name(ACTION_GROUPS[step.group])
        name = f"{target}___{step.tool}"
        arguments = json.dumps(step.arguments, ensure_ascii=False)
        start = {"toolUse": {"toolUseId": tool_use_id, "name": name, "type": "tool_use"}}
        yield from _harness_message(
            "assistant", [{"toolUse": {"input": piece}} for piece in _halves(arguments)], "tool_use", start
        )
        result = self.functions[step.group].lambda_handler(step.arguments, gateway_context(step.tool, target))
        status = "error" if result["isError"] else "success"
        delta = {"toolResult": [{"text": block["text"]} for block in result["content"]]}
        yield from _harness_message(
            "user", [delta], "tool_result", {"toolResult": {"toolUseId": tool_use_id, "status": status}}
        )

    def classic_stream(self, ids: dict[str, str], traced: bool) -> Iterator[bytes]:
        """`ids`: the agentId, agentAliasId and sessionId the call names; the trace only when it asked for one."""
        turn = self.turns.pop(0)
        trace = _tracer(ids, traced)
        yield from trace({"modelInvocationInput": {"type": "ORCHESTRATION", "text": "(the prompt)"}})
        for step in turn.steps:
            event = AgentDoor(self.functions).event(step.group, step.tool, step.arguments)
            call = {"invocationType": "ACTION_GROUP", "actionGroupInvocationInput": _action_input(event)}
            yield from trace({"invocationInput": call})
            response = self.functions[step.group].lambda_handler(event, LambdaContext())
            text = response["response"]["responseBody"]["application/json"]["body"]
            yield from trace({"observation": {"type": "ACTION_GROUP", "actionGroupInvocationOutput": {"text": text}}})
        if turn.fault is not None:
            yield exception_message(turn.fault, "the scripted model failed")
            return
        yield from trace({"observation": {"type": "FINISH", "finalResponse": {"text": turn.answer}}})
        yield event_message("chunk", {"bytes": base64.b64encode(turn.answer.encode()).decode()})


def _harness_message(
    role: str, deltas: list[dict[str, Any]], stop: str, start: dict[str, Any] | None = None
) -> Iterator[bytes]:
    """A harness message of one content block: its start (a tool's call or result; text has none), deltas, stop."""
    yield event_message("messageStart", {"role": role})
    if start is not None:
        yield event_message("contentBlockStart", {"contentBlockIndex": 0, "start": start})
    for delta in deltas:
        yield event_message("contentBlockDelta", {"contentBlockIndex": 0, "delta": delta})
    yield event_message("contentBlockStop", {"contentBlockIndex": 0})
    yield event_message("messageStop", {"stopReason": stop})


def _halves(text: str) -> list[str]:
    """`text` in two deltas, as a model streams it: a client must join them."""
    middle = len(text) // 2
    return [piece for piece in (text[:middle], text[middle:]) if piece]


def _action_input(event: dict[str, Any]) -> dict[str, Any]:
    """The trace's account of an action group event: the same parameters, the body's properties under its media
    type, every value as a string."""
    body = (event.get("requestBody") or {}).get("content", {}).get("application/json", {}).get("properties", [])
    return {
        "actionGroupName": event["actionGroup"],
        "apiPath": event["apiPath"],
        "verb": event["httpMethod"].lower(),
        "executionType": "LAMBDA",
        "parameters": [_as_text(item) for item in event.get("parameters", [])],
        "requestBody": {"content": {"application/json": [_as_text(item) for item in body]}},
    }


def _as_text(item: dict[str, Any]) -> dict[str, str]:
    value = item["value"]
    return {"name": item["name"], "type": item["type"], "value": value if isinstance(value, str) else json.dumps(value)}


def _tracer(ids: dict[str, str], traced: bool) -> Callable[[dict[str, Any]], list[bytes]]:
    """The trace events of an orchestration step: none unless the call set enableTrace, as Bedrock does."""

    def trace(orchestration: dict[str, Any]) -> list[bytes]:
        part = {**ids, "agentVersion": "1", "trace": {"orchestrationTrace": orchestration}}
        return [event_message("trace", part)] if traced else []

    return trace
