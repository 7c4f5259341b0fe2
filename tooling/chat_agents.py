"""The deployed agent, on either platform, as the steps a developer wants to watch: each tool call with its arguments,
each result (whether it failed, its rows or total, its error), then the answer.

`Harness` reads an AgentCore harness's InvokeHarness stream, `ClassicAgent` a Bedrock Agent's InvokeAgent stream with
its trace; both keep one session across questions and yield `Step`s as the events arrive.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

_INDENT = "      "
_MAX_SUMMARY_CHARS = 300
# How a tool's answer measures itself, first match wins: case-law search has a total, SQL a row count, findInCase
# hits, readCaseText a page of a text, a profile the table's rows.
_MEASURES = (
    ("total", "{count} of {total} decisions"),
    ("count", "{count} rows"),
    ("hits", "{hits} places in {doc_id}"),
    ("total_chars", "page at character {offset} of {total_chars}"),
    ("rows", "profile of {rows} rows"),
)
# The reasons a harness message stops for (botocore's HarnessStopReason) that mean the turn did not finish; end_turn,
# tool_use, tool_result, stop_sequence and partial_turn are the loop going on or ending well.
_UNFINISHED = {
    "max_tokens",
    "content_filtered",
    "malformed_model_output",
    "malformed_tool_use",
    "interrupted",
    "model_context_window_exceeded",
    "max_iterations_exceeded",
    "max_output_tokens_exceeded",
    "timeout_exceeded",
    "hook_stopped",
}


@dataclass(frozen=True)
class ToolCall:
    tool: str
    arguments: dict[str, Any]
    failed = False

    def render(self) -> str:
        lines = [f"  → {self.tool}"]
        for name, value in self.arguments.items():
            text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
            lines.append(f"{_INDENT}{name}: " + text.replace("\n", "\n" + _INDENT + " " * (len(name) + 2)))
        return "\n".join(lines)


@dataclass(frozen=True)
class ToolResult:
    failed: bool
    summary: str

    def render(self) -> str:
        return f"    {'✗' if self.failed else '✓'} {self.summary}"


@dataclass(frozen=True)
class Answer:
    text: str
    failed = False

    def render(self) -> str:
        return self.text


@dataclass(frozen=True)
class Stopped:
    """The turn ended without finishing: the agent's loop gave up, or the service failed it."""

    reason: str
    failed = True

    def render(self) -> str:
        return f"  ✗ stopped: {self.reason}"


Step = ToolCall | ToolResult | Answer | Stopped


class Agent(Protocol):
    description: str

    def ask(self, question: str) -> Iterator[Step]: ...


def result_of(text: str, failed: bool = False) -> ToolResult:
    """A tool's answer (our JSON body, as the Gateway or the trace hands it over) as a one-line result.

    >>> result_of('{"results": [{"n": 1}], "count": 1, "truncated": false}')
    ToolResult(failed=False, summary='1 rows')
    >>> result_of('{"error": "列 venue はありません。"}')
    ToolResult(failed=True, summary='列 venue はありません。')
    """
    try:
        body = json.loads(text)
    except ValueError:
        body = None
    if not isinstance(body, dict):
        return ToolResult(failed, _clip(text))
    if "error" in body:
        return ToolResult(True, _clip(str(body["error"])))
    measure = next((form.format(**body) for key, form in _MEASURES if key in body), "ok")
    return ToolResult(failed, measure + (", truncated" if body.get("truncated") else ""))


def _clip(text: str) -> str:
    return text if len(text) <= _MAX_SUMMARY_CHARS else text[: _MAX_SUMMARY_CHARS - 1] + "…"


class Harness:
    """An AgentCore harness: its loop calls our Gateway's tools and streams every block of every message."""

    def __init__(self, client: Any, arn: str) -> None:
        self.client, self.arn = client, arn
        # InvokeHarness wants 33-100 characters here; a UUID has 36.
        self.session_id = str(uuid.uuid4())
        self.description = f"AgentCore harness (preview) {arn}, session {self.session_id}"

    def ask(self, question: str) -> Iterator[Step]:
        response = self.client.invoke_harness(
            harnessArn=self.arn,
            runtimeSessionId=self.session_id,
            messages=[{"role": "user", "content": [{"text": question}]}],
        )
        return harness_steps(response["stream"])


@dataclass
class _Block:
    """One content block of a harness message, gathered from its deltas until it stops."""

    start: dict[str, Any] = field(default_factory=dict)
    parts: list[str] = field(default_factory=list)

    def add(self, delta: dict[str, Any]) -> None:
        if "text" in delta:
            self.parts.append(delta["text"])
        elif "toolUse" in delta:
            self.parts.append(delta["toolUse"]["input"])
        for item in delta.get("toolResult", []):
            self.parts.append(item["text"] if "text" in item else json.dumps(item.get("json"), ensure_ascii=False))

    def step(self, role: str | None) -> Step | None:
        text = "".join(self.parts)
        if "toolUse" in self.start:
            return ToolCall(self.start["toolUse"]["name"], _arguments(text))
        if "toolResult" in self.start:
            return result_of(text, failed=self.start["toolResult"].get("status") == "error")
        return Answer(text) if role == "assistant" and text else None


def harness_steps(stream: Any) -> Iterator[Step]:
    """The steps of an InvokeHarness stream: a block becomes a step when it stops (a tool's input is complete only
    then); text counts as the answer only in the assistant's messages."""
    role: str | None = None
    blocks: dict[int, _Block] = {}
    for event in stream:
        if "messageStart" in event:
            role = event["messageStart"]["role"]
        elif "contentBlockStart" in event:
            start = event["contentBlockStart"]
            blocks[start["contentBlockIndex"]] = _Block(start["start"])
        elif "contentBlockDelta" in event:
            delta = event["contentBlockDelta"]
            blocks.setdefault(delta["contentBlockIndex"], _Block()).add(delta["delta"])
        elif "contentBlockStop" in event:
            step = blocks.pop(event["contentBlockStop"]["contentBlockIndex"], _Block()).step(role)
            if step is not None:
                yield step
        elif "messageStop" in event and event["messageStop"]["stopReason"] in _UNFINISHED:
            yield Stopped(event["messageStop"]["stopReason"])


def _arguments(text: str) -> dict[str, Any]:
    try:
        arguments = json.loads(text or "{}")
    except ValueError:
        return {"input": text}
    return arguments if isinstance(arguments, dict) else {"input": arguments}


class ClassicAgent:
    """A Bedrock Agent (Agents Classic) behind an alias: its trace shows each action group call and what came back."""

    def __init__(self, client: Any, agent_id: str, alias_id: str) -> None:
        self.client, self.agent_id, self.alias_id = client, agent_id, alias_id
        self.session_id = str(uuid.uuid4())
        self.description = f"Bedrock agent {agent_id} alias {alias_id}, session {self.session_id}"

    def ask(self, question: str) -> Iterator[Step]:
        response = self.client.invoke_agent(
            agentId=self.agent_id,
            agentAliasId=self.alias_id,
            sessionId=self.session_id,
            inputText=question,
            enableTrace=True,
        )
        for event in response["completion"]:
            if "trace" in event:
                yield from trace_steps(event["trace"]["trace"])
            elif "chunk" in event:
                yield Answer(event["chunk"]["bytes"].decode())


def trace_steps(trace: dict[str, Any]) -> Iterator[Step]:
    """The steps one InvokeAgent trace holds: an action group's invocation input, its observation, a failure."""
    orchestration = trace.get("orchestrationTrace", {})
    call = orchestration.get("invocationInput", {}).get("actionGroupInvocationInput")
    if call is not None:
        name = f"{call.get('actionGroupName')} {call.get('verb', '').upper()} {call.get('apiPath')}"
        yield ToolCall(name, _action_arguments(call))
    output = orchestration.get("observation", {}).get("actionGroupInvocationOutput")
    if output is not None:
        yield result_of(output.get("text", ""))
    if "failureTrace" in trace:
        yield Stopped(trace["failureTrace"].get("failureReason", "the agent failed"))


def _action_arguments(call: dict[str, Any]) -> dict[str, Any]:
    """An action group call's parameters and request body properties as one object, as a tool call has them."""
    body = [item for items in call.get("requestBody", {}).get("content", {}).values() for item in items]
    return {item["name"]: item.get("value") for item in [*call.get("parameters", []), *body]}
