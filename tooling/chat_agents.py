"""The deployed agent, on either platform, as the steps a developer wants to watch: each tool call with its arguments,
each result (whether it failed, its rows or total, its error), the answer, then the tokens it took.

`Harness` reads an AgentCore harness's InvokeHarness stream, `ClassicAgent` a Bedrock Agent's InvokeAgent stream with
its trace; both keep one session across questions and yield `Step`s as the events arrive. Every value a step holds
came from outside (the model, a tool, the service): a step's `render` shows it only through `shown`.
"""

from __future__ import annotations

import functools
import json
import operator
import unicodedata
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from botocore.exceptions import BotoCoreError, ClientError, EventStreamError

_INDENT = "      "
# How much of a value from outside is shown: a name (a tool's, an argument's, an error's), an argument's value, a
# tool's result or an error's message, an answer; and how many arguments of one call.
_NAME_CHARS = 200
_VALUE_CHARS = 2_000
_SUMMARY_CHARS = 500
_ANSWER_CHARS = 4_000
_MAX_ARGUMENTS = 20
# The Unicode categories a terminal acts on rather than shows: controls (C0, DEL and C1: ESC, BEL, CR, backspace,
# CSI), formats (bidi overrides and isolates, zero widths), line and paragraph separators, and lone surrogates, which
# cannot even be printed.
_ACTED_ON = {"Cc", "Cf", "Zl", "Zp", "Cs"}
_NAMED_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
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


def shown(text: str, limit: int, *, newlines: bool = False) -> str:
    r"""`text` from outside made safe to print: each character a terminal would act on is written as its escape (a
    newline is kept only with `newlines`), and past `limit` characters it is cut, its full length said.

    >>> shown("\r\x1b[2K✓ ok\u202e", 100)
    '\\r\\x1b[2K✓ ok\\u202e'
    >>> shown("x" * 12345, 3)
    'xxx… (12,345 characters in all)'
    """
    kept = "".join(_visible(char, newlines) for char in text[:limit])
    return kept if len(text) <= limit else f"{kept}… ({len(text):,} characters in all)"


def _visible(char: str, newlines: bool) -> str:
    if (char == "\n" and newlines) or unicodedata.category(char) not in _ACTED_ON:
        return char
    if char in _NAMED_ESCAPES:
        return _NAMED_ESCAPES[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


@dataclass(frozen=True)
class ToolCall:
    tool: str
    arguments: dict[str, Any]
    failed = False

    def render(self) -> str:
        lines = [f"  → {shown(self.tool, _NAME_CHARS)}"]
        lines += [_argument(name, value) for name, value in list(self.arguments.items())[:_MAX_ARGUMENTS]]
        if len(self.arguments) > _MAX_ARGUMENTS:
            lines.append(f"{_INDENT}… ({len(self.arguments):,} arguments in all)")
        return "\n".join(lines)


def _argument(name: str, value: Any) -> str:
    """One argument, a value of several lines (SQL) going on under its first line's start."""
    label = shown(name, _NAME_CHARS)
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    lines = shown(text, _VALUE_CHARS, newlines=True)
    return f"{_INDENT}{label}: " + lines.replace("\n", "\n" + _INDENT + " " * (len(label) + 2))


@dataclass(frozen=True)
class ToolResult:
    failed: bool
    summary: str

    def render(self) -> str:
        return f"    {'✗' if self.failed else '✓'} {shown(self.summary, _SUMMARY_CHARS)}"


@dataclass(frozen=True)
class Answer:
    text: str
    failed = False

    def render(self) -> str:
        return shown(self.text, _ANSWER_CHARS, newlines=True)


@dataclass(frozen=True)
class Stopped:
    """The turn ended without finishing: the agent's loop gave up, or the agent failed it."""

    reason: str
    failed = True

    def render(self) -> str:
        return f"  ✗ stopped: {shown(self.reason, _SUMMARY_CHARS)}"


@dataclass(frozen=True)
class ServiceFailure:
    """The service failed the question: an exception event in the stream (`runtimeClientError`, `throttlingException`,
    ... as the operation's model names the stream's members), the call refused, or no connection."""

    name: str
    where: str
    message: str
    failed = True

    def render(self) -> str:
        name = shown(self.name, _NAME_CHARS) or "an unnamed error"
        return f"  ✗ {name} {self.where}: {shown(self.message, _SUMMARY_CHARS)}"


@dataclass(frozen=True)
class TokenUsage:
    """The model tokens an answer took, as the service counts them; the cache's only from a model that caches."""

    input: int = 0
    output: int = 0
    total: int = 0
    cache_read: int | None = None
    cache_write: int | None = None
    failed = False

    def __add__(self, other: TokenUsage) -> TokenUsage:
        return TokenUsage(
            self.input + other.input,
            self.output + other.output,
            self.total + other.total,
            _sum_of_known(self.cache_read, other.cache_read),
            _sum_of_known(self.cache_write, other.cache_write),
        )

    def render(self) -> str:
        return f"  tokens: {self.counts()}"

    def counts(self) -> str:
        """'1,234 in, 56 out, 1,290 total', then the cache's counts when the model gave them."""
        cache = ((self.cache_read, "read from cache"), (self.cache_write, "written to cache"))
        return ", ".join(
            [f"{self.input:,} in", f"{self.output:,} out", f"{self.total:,} total"]
            + [f"{count:,} {what}" for count, what in cache if count is not None]
        )


@dataclass(frozen=True)
class TokensNotReported:
    why: str
    failed = False

    def render(self) -> str:
        return f"  tokens: not reported ({self.why})"


Step = ToolCall | ToolResult | Answer | Stopped | ServiceFailure | TokenUsage | TokensNotReported


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
        return ToolResult(failed, text)
    if "error" in body:
        return ToolResult(True, str(body["error"]))
    measure = next((form.format_map(_Fields(body)) for key, form in _MEASURES if key in body), "ok")
    return ToolResult(failed, measure + (", truncated" if body.get("truncated") else ""))


class _Fields(dict[str, Any]):
    """A tool answer's fields for its measure: one the answer lacks shows as "?" rather than failing the chat."""

    def __missing__(self, key: str) -> str:
        return "?"


def failure_of(error: BotoCoreError | ClientError) -> ServiceFailure:
    """The step an exception from boto3 is: botocore raises an exception event of the stream as EventStreamError, named
    by its `:exception-type` when the operation's model lists it (and unnamed otherwise)."""
    if isinstance(error, ClientError):
        details = error.response.get("Error", {})
        where = "event in the stream" if isinstance(error, EventStreamError) else f"from {error.operation_name}"
        return ServiceFailure(str(details.get("Code", "")), where, str(details.get("Message", "")))
    return ServiceFailure(type(error).__name__, "in the client", str(error))


def usage_of(usage: dict[str, Any]) -> TokenUsage:
    """A harness metadata event's or a classic trace's usage (whose total is not given: its input and output)."""
    input_tokens, output_tokens = _count(usage.get("inputTokens")), _count(usage.get("outputTokens"))
    return TokenUsage(
        input_tokens,
        output_tokens,
        _count(usage.get("totalTokens", input_tokens + output_tokens)),
        _count_if_given(usage.get("cacheReadInputTokens")),
        _count_if_given(usage.get("cacheWriteInputTokens")),
    )


def tokens_of(usages: list[TokenUsage], why_none: str) -> TokenUsage | TokensNotReported:
    """An answer's tokens: the sum of every usage its stream reported (one per model call or per invocation)."""
    return functools.reduce(operator.add, usages) if usages else TokensNotReported(why_none)


def _count(value: object) -> int:
    """A count from the stream, 0 when it is none: a malformed count is not worth failing the chat for."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _count_if_given(value: object) -> int | None:
    return None if value is None else _count(value)


def _sum_of_known(first: int | None, second: int | None) -> int | None:
    return None if first is None and second is None else (first or 0) + (second or 0)


class Harness:
    """An AgentCore harness: its loop calls our Gateway's tools and streams every block of every message."""

    def __init__(self, client: Any, arn: str) -> None:
        self.client, self.arn = client, arn
        # InvokeHarness wants 33-100 characters here; a UUID has 36.
        self.session_id = str(uuid.uuid4())
        self.description = f"AgentCore harness {arn}, session {self.session_id}"

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


def harness_steps(stream: Iterable[dict[str, Any]]) -> Iterator[Step]:
    """The steps of an InvokeHarness stream: a block becomes a step when it stops (a tool's input is complete only
    then); text counts as the answer only in the assistant's messages; the metadata events' usage comes last."""
    role: str | None = None
    blocks: dict[int, _Block] = {}
    usages: list[TokenUsage] = []
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
        elif "metadata" in event:
            usages.append(usage_of(event["metadata"].get("usage", {})))
    yield tokens_of(usages, "the stream had no metadata event")


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
        return agent_steps(response["completion"])


def agent_steps(completion: Iterable[dict[str, Any]]) -> Iterator[Step]:
    """The steps of an InvokeAgent stream: its trace's as they come, then the answer its chunks make (joined before
    decoding: a character may be split between two), then the tokens its trace's model invocations counted."""
    answer = b""
    usages: list[TokenUsage] = []
    for event in completion:
        if "trace" in event:
            trace = event["trace"].get("trace", {})
            yield from trace_steps(trace)
            usages += trace_usage(trace)
        elif "chunk" in event:
            answer += event["chunk"].get("bytes", b"")
    if answer:
        yield Answer(answer.decode(errors="replace"))
    yield tokens_of(usages, "the agent's trace counted none")


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


def trace_usage(trace: dict[str, Any]) -> list[TokenUsage]:
    """The tokens a trace's model invocation counted: an orchestration, pre- or post-processing or routing trace keeps
    them in its modelInvocationOutput's metadata."""
    parts = [part.get("modelInvocationOutput", {}).get("metadata", {}) for part in trace.values()]
    return [usage_of(metadata["usage"]) for metadata in parts if "usage" in metadata]


def _action_arguments(call: dict[str, Any]) -> dict[str, Any]:
    """An action group call's parameters and request body properties as one object, as a tool call has them."""
    body = [item for items in call.get("requestBody", {}).get("content", {}).values() for item in items]
    return {item["name"]: item.get("value") for item in [*call.get("parameters", []), *body]}
