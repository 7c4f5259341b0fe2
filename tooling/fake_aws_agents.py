"""A scripted model behind each agent platform, calling our real functions: what tooling/fake_aws.py streams back.

Each question gets the script's next `Turn`: its tool calls, run when the stream reaches them, then its answer.
- The harness calls a tool through the Gateway door: the arguments as the event and `<target>___<tool>` in the
  client context, into lambda_handler; the stream carries the call and the tool result as InvokeHarness blocks.
- The classic agent calls it through its action group: the real event an agent sends (tooling/doors.py); the trace
  carries the invocation input (apiPath, verb, parameters, request body) and the observation (the body's text).
- A `StreamedCall` is streamed as written, none of our functions run: whatever a tool could send, or a call never
  answered; `WireMessages` are put on the wire as they are: a garbled or unexpected stream.
- Each model call reports its tokens: the harness in metadata events, the classic agent in its trace's model output.
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

_Trace = Callable[[dict[str, Any]], list[bytes]]


@dataclass(frozen=True)
class ToolStep:
    """A call the model makes: `tool` (an operationId) of the function serving action group `group`."""

    group: str
    tool: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class StreamedCall:
    """A call the stream carries as written here, its result too, with none of our functions run: what any tool the
    agent may be given (another Gateway target, another action group) could send back, hostile text included.

    `name` is the harness's tool name, or the classic trace's `<action group> <VERB> <apiPath>` (a name without spaces
    is an action group's, POST /); `arguments` as text are the harness's input as it is (the classic trace's one
    parameter `input`); a `result` of None is never sent."""

    name: str
    arguments: dict[str, Any] | str
    result: str | None
    failed: bool = False


@dataclass(frozen=True)
class WireMessages:
    """Event-stream messages put on the wire as they are, where the stream reaches them: a corrupted frame, a payload
    that is not UTF-8, an event missing a member, whatever a service or anything between could send."""

    messages: tuple[bytes, ...]


ScriptStep = ToolStep | StreamedCall | WireMessages


# What one model call reports, unless a turn says otherwise.
_USAGE = {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2}
# The members of a classic trace's usage (botocore's bedrock-agent-runtime Usage): no total, no cache.
_CLASSIC_USAGE = ("inputTokens", "outputTokens")


@dataclass(frozen=True)
class Turn:
    """The model's answer to one question. A `fault` (an exception's name, as the operation's stream names it) ends the
    stream after the tool calls with `fault_message`; `stop` is the harness's reason for ending its last message;
    `usage` is what each model call reports: the harness's metadata events, the classic trace's model outputs."""

    steps: tuple[ScriptStep, ...] = ()
    answer: str = ""
    fault: str | None = None
    fault_message: str = "the scripted model failed"
    stop: str = "end_turn"
    usage: tuple[dict[str, int], ...] = (_USAGE,)


@dataclass
class ScriptedModel:
    functions: dict[str, ModuleType]
    turns: list[Turn] = field(default_factory=list)

    def harness_stream(self) -> Iterator[bytes]:
        turn = self.turns.pop(0)
        for number, step in enumerate(turn.steps):
            if isinstance(step, WireMessages):
                yield from step.messages
            else:
                yield from self._harness_tool_call(f"tooluse_{number}", step)
        if turn.fault is not None:
            yield exception_message(turn.fault, turn.fault_message)
            return
        yield from _harness_message("assistant", [{"text": piece} for piece in _halves(turn.answer)], turn.stop)
        for usage in turn.usage:
            yield event_message("metadata", {"usage": usage, "metrics": {"latencyMs": 1}})

    def _harness_tool_call(self, tool_use_id: str, step: ToolStep | StreamedCall) -> Iterator[bytes]:
        """The call's message, then, once the function answered, the result's message."""
        arguments = step.arguments
        if not isinstance(arguments, str):
            arguments = json.dumps(arguments, ensure_ascii=False)
        start = {"toolUse": {"toolUseId": tool_use_id, "name": _gateway_name(step), "type": "tool_use"}}
        yield from _harness_message(
            "assistant", [{"toolUse": {"input": piece}} for piece in _halves(arguments)], "tool_use", start
        )
        failed, text = (step.failed, step.result) if isinstance(step, StreamedCall) else self._through_gateway(step)
        if text is None:
            return
        delta = {"toolResult": [{"text": piece} for piece in _halves(text)]}
        status = "error" if failed else "success"
        yield from _harness_message(
            "user", [delta], "tool_result", {"toolResult": {"toolUseId": tool_use_id, "status": status}}
        )

    def _through_gateway(self, step: ToolStep) -> tuple[bool, str]:
        """Whether the Gateway door's call failed, and its text."""
        target = target_name(ACTION_GROUPS[step.group])
        result = self.functions[step.group].lambda_handler(step.arguments, gateway_context(step.tool, target))
        return result["isError"], "".join(block["text"] for block in result["content"])

    def classic_stream(self, ids: dict[str, str], traced: bool) -> Iterator[bytes]:
        """`ids`: the agentId, agentAliasId and sessionId the call names; the trace only when it asked for one. A model
        call precedes each tool call and the answer, each reporting the turn's next usage."""
        turn = self.turns.pop(0)
        trace = _tracer(ids, traced)
        usages = iter(turn.usage)
        for step in turn.steps:
            if isinstance(step, WireMessages):
                yield from step.messages
                continue
            yield from _model_call(trace, next(usages, None))
            yield from self._classic_tool_call(step, trace)
        if turn.fault is not None:
            yield exception_message(turn.fault, turn.fault_message)
            return
        last_calls: list[dict[str, int] | None] = list(usages) or [None]
        for usage in last_calls:
            yield from _model_call(trace, usage)
        yield from trace({"observation": {"type": "FINISH", "finalResponse": {"text": turn.answer}}})
        yield event_message("chunk", {"bytes": base64.b64encode(turn.answer.encode()).decode()})

    def _classic_tool_call(self, step: ToolStep | StreamedCall, trace: _Trace) -> Iterator[bytes]:
        """The invocation input, then, once the function answered, the observation."""
        if isinstance(step, StreamedCall):
            yield from trace(_invocation(_streamed_input(step)))
            text = step.result
        else:
            event = AgentDoor(self.functions).event(step.group, step.tool, step.arguments)
            yield from trace(_invocation(_action_input(event)))
            response = self.functions[step.group].lambda_handler(event, LambdaContext())
            text = response["response"]["responseBody"]["application/json"]["body"]
        if text is None:
            return
        yield from trace({"observation": {"type": "ACTION_GROUP", "actionGroupInvocationOutput": {"text": text}}})


def _gateway_name(step: ToolStep | StreamedCall) -> str:
    """The tool's name in the harness's stream: the Gateway's `<target>___<tool>`, or a streamed call's own."""
    return step.name if isinstance(step, StreamedCall) else f"{target_name(ACTION_GROUPS[step.group])}___{step.tool}"


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


def _invocation(call: dict[str, Any]) -> dict[str, Any]:
    return {"invocationInput": {"invocationType": "ACTION_GROUP", "actionGroupInvocationInput": call}}


def _streamed_input(call: StreamedCall) -> dict[str, Any]:
    """The trace's account of a streamed call: its name as the action group, verb and path, its arguments as
    parameters."""
    group, verb, path = call.name.split(" ", 2) if call.name.count(" ") >= 2 else (call.name, "POST", "/")
    arguments = {"input": call.arguments} if isinstance(call.arguments, str) else call.arguments
    parameters = [_as_text({"name": name, "type": "string", "value": value}) for name, value in arguments.items()]
    return {"actionGroupName": group, "apiPath": path, "verb": verb.lower(), "parameters": parameters}


def _as_text(item: dict[str, Any]) -> dict[str, str]:
    value = item["value"]
    return {"name": item["name"], "type": item["type"], "value": value if isinstance(value, str) else json.dumps(value)}


def _model_call(trace: _Trace, usage: dict[str, int] | None) -> list[bytes]:
    """A model invocation's trace: its input, then its output with the usage the classic trace has, if any."""
    events = trace({"modelInvocationInput": {"type": "ORCHESTRATION", "text": "(the prompt)"}})
    if usage is None:
        return events
    counted = {key: usage[key] for key in _CLASSIC_USAGE if key in usage}
    output = {"rawResponse": {"content": "(the model's output)"}, "metadata": {"usage": counted}}
    return events + trace({"modelInvocationOutput": output})


def _tracer(ids: dict[str, str], traced: bool) -> _Trace:
    """The trace events of an orchestration step: none unless the call set enableTrace, as Bedrock does."""

    def trace(orchestration: dict[str, Any]) -> list[bytes]:
        part = {**ids, "agentVersion": "1", "trace": {"orchestrationTrace": orchestration}}
        return [event_message("trace", part)] if traced else []

    return trace
