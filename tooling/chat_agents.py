"""The deployed agent, on either platform, as the steps a developer wants to watch: each tool call with its arguments,
each result (whether it failed, its rows or total, its error), the answer, then the tokens it took.

`Harness` reads an AgentCore harness's InvokeHarness stream, `ClassicAgent` a Bedrock Agent's InvokeAgent stream with
its trace; both keep one session across questions and yield `Step`s as the events arrive. A call is paired with its
result (the harness's toolUseId; the classic trace's observation answers the oldest invocation): a call left without
one is a failure, and only a result of a call of one of the stack's tools counts as a tool called. A result succeeds
only as one of our JSON bodies without an error.

Every value a step holds came from outside (the model, a tool, the service): a step's `render` shows it only through
`shown`. Nor is an event trusted to hold the members its model lists, of their types, or the stream to be readable:
botocore's failure to read it ends the answer as the service's failure.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import operator
import unicodedata
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from botocore.exceptions import BotoCoreError, ClientError, EventStreamError
from tooling.eventstream import TAP, ExceptionTap, exception_of, tap_exceptions

_INDENT = "      "
# How much of a value from outside is shown: a name (a tool's, an argument's, an error's), an argument's value, a
# tool's result or an error's message, an answer; and how many arguments of one call.
_NAME_CHARS = 200
_VALUE_CHARS = 2_000
_SUMMARY_CHARS = 500
_ANSWER_CHARS = 4_000
_MAX_ARGUMENTS = 20
# How many lines of a value that keeps its newlines are shown: an argument's (SQL), the answer's.
_VALUE_LINES = 40
_ANSWER_LINES = 200
# Each line of the answer starts with this, so that none can pass for a line of ours (a call, a result, the tokens).
_ANSWER_MARGIN = "│ "
# The Unicode categories a terminal acts on rather than shows: controls (C0, DEL and C1: ESC, BEL, CR, backspace,
# CSI), formats (bidi overrides and isolates, zero widths), line and paragraph separators, and lone surrogates, which
# cannot even be printed.
_ACTED_ON = {"Cc", "Cf", "Zl", "Zp", "Cs"}
# Letters that show as nothing, so a name ending in one looks like the name without it: the Hangul fillers and the
# braille blank.
_BLANKS = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"}
# Combining marks: each draws on the character before it, which may be a name's last letter or our own ✓.
_MARKS = {"Mn", "Mc", "Me"}
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
# The members of an MCP tool result, which the Gateway may hand over whole: the text of its content is our body.
_MCP_RESULT = {"content", "isError", "structuredContent", "_meta"}
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


def shown(text: str, limit: int, *, lines: int = 1, prose: bool = False) -> str:
    r"""`text` from outside made safe to print: each character a terminal would act on, that shows as nothing or that
    combines with the one before is written as its escape; a newline is kept only when `lines` allows more than one,
    and in `prose` a combining mark after a non-ASCII letter (Japanese written decomposed). Past `limit` characters
    or `lines` lines it is cut, its full size said.

    >>> shown("\r\x1b[2K✓ ok\u202e", 100)
    '\\r\\x1b[2K✓ ok\\u202e'
    >>> shown("x" * 12345, 3)
    'xxx… (12,345 characters in all)'
    >>> shown("SELECT 1\nFROM t\nWHERE x", 100, lines=2)
    'SELECT 1\nFROM t… (23 characters, 3 lines in all)'
    >>> shown("searchEvents\u3164", 100), shown("searchEvents\u0338", 100, prose=True)
    ('searchEvents\\u3164', 'searchEvents\\u0338')
    >>> shown("か\u3099", 100, prose=True) == "か\u3099"
    True
    """
    kept = text[:limit] if lines == 1 else "\n".join(text[:limit].split("\n")[:lines])
    escaped = _escaped(kept, newlines=lines > 1, prose=prose)
    return escaped if kept == text else f"{escaped}… ({_size(text, lines)} in all)"


def _size(text: str, lines: int) -> str:
    count = text.count("\n") + 1
    return f"{len(text):,} characters" + (f", {count:,} lines" if 1 < lines < count else "")


def _escaped(text: str, *, newlines: bool, prose: bool) -> str:
    pieces: list[str] = []
    carries_mark = False  # whether the character shown last is a non-ASCII one a prose mark may combine with
    for char in text:
        kept = _kept(char, newlines=newlines, mark=prose and carries_mark)
        pieces.append(char if kept else _escape(char))
        carries_mark = kept and not char.isascii()
    return "".join(pieces)


def _kept(char: str, *, newlines: bool, mark: bool) -> bool:
    if char == "\n":
        return newlines
    category = unicodedata.category(char)
    if category in _MARKS:
        return mark
    return category not in _ACTED_ON and char not in _BLANKS


def _escape(char: str) -> str:
    if char in _NAMED_ESCAPES:
        return _NAMED_ESCAPES[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


@dataclass(frozen=True)
class ToolCall:
    """A call the agent made; `ours` when of one of the stack's tools, the only calls the smoke test counts."""

    tool: str
    arguments: dict[str, Any]
    ours: bool

    @property
    def failed(self) -> bool:
        return not self.ours

    def render(self) -> str:
        lines = [f"  → {shown(self.tool, _NAME_CHARS)}"]
        lines += [_argument(name, value) for name, value in list(self.arguments.items())[:_MAX_ARGUMENTS]]
        if len(self.arguments) > _MAX_ARGUMENTS:
            lines.append(f"{_INDENT}… ({len(self.arguments):,} arguments in all)")
        if not self.ours:
            lines.append("    ✗ not one of the stack's tools")
        return "\n".join(lines)


def _argument(name: str, value: Any) -> str:
    """One argument, a value of several lines (SQL) going on under its first line's start."""
    label = shown(name, _NAME_CHARS)
    text = value if isinstance(value, str) else _json(value)
    lines = shown(text, _VALUE_CHARS, lines=_VALUE_LINES)
    return f"{_INDENT}{label}: " + lines.replace("\n", "\n" + _INDENT + " " * (len(label) + 2))


@dataclass(frozen=True)
class ToolResult:
    """What came back from a call; `answers_ours` when the call was of one of the stack's tools."""

    failed: bool
    summary: str
    answers_ours: bool = False

    def render(self) -> str:
        return f"    {'✗' if self.failed else '✓'} {shown(self.summary, _SUMMARY_CHARS, prose=True)}"


@dataclass(frozen=True)
class NoResult:
    """A call whose result the stream never brought."""

    tool: str
    failed = True

    def render(self) -> str:
        return f"  ✗ no result for {shown(self.tool, _NAME_CHARS)}"


@dataclass(frozen=True)
class Answer:
    text: str
    failed = False

    def render(self) -> str:
        text = shown(self.text, _ANSWER_CHARS, lines=_ANSWER_LINES, prose=True)
        return "\n".join(_ANSWER_MARGIN + line for line in text.split("\n"))


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
    ...), a stream botocore could not read, the call refused, or no connection."""

    name: str
    where: str
    message: str
    failed = True

    def render(self) -> str:
        name = shown(self.name, _NAME_CHARS) or "an unnamed error"
        return f"  ✗ {name} {self.where}: {shown(self.message, _SUMMARY_CHARS, prose=True)}"


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


Step = ToolCall | ToolResult | NoResult | Answer | Stopped | ServiceFailure | TokenUsage | TokensNotReported
# One event of a stream as botocore parses it: {member name: its members}.
Event = dict[str, Any]


class Agent(Protocol):
    description: str

    def ask(self, question: str) -> Iterator[Step]: ...


class _NotOurBody(Exception):
    """A tool's text is not one of our JSON bodies; the message says why."""


def result_of(text: str, failed: bool = False) -> ToolResult:
    """A tool's answer (our JSON body, as the Gateway or the trace hands it over) as a one-line result: failed when the
    call did, when the text is not one of our bodies (a timeout's message, JSON Python cannot read) or holds an error.
    An MCP tool result, as the Gateway may pass it on, is read for its content's text and isError.

    >>> result_of('{"results": [{"n": 1}], "count": 1, "truncated": false}')
    ToolResult(failed=False, summary='1 rows', answers_ours=False)
    >>> result_of('{"error": "列 venue はありません。"}')
    ToolResult(failed=True, summary='列 venue はありません。', answers_ours=False)
    >>> result_of("Task timed out after 30.00 seconds").summary
    'not a JSON body of ours (not JSON): Task timed out after 30.00 seconds'
    """
    try:
        body = _body(text)
        if _is_mcp_result(body):
            text, failed = _mcp_text(body), failed or body.get("isError") is True
            body = _body(text)
        return _measured(body, failed)
    except _NotOurBody as error:
        return ToolResult(True, f"not a JSON body of ours ({error}): {text}")
    except RecursionError:
        return ToolResult(True, f"not a JSON body of ours (nested too deep to read): {text}")


def _body(text: str) -> dict[str, Any]:
    try:
        body = json.loads(text)
    except json.JSONDecodeError:
        raise _NotOurBody("not JSON") from None
    except ValueError as error:  # JSON that Python will not read: an integer of more than 4,300 digits
        raise _NotOurBody(str(error)) from None
    if not isinstance(body, dict):
        raise _NotOurBody("not a JSON object")
    return body


def _is_mcp_result(body: dict[str, Any]) -> bool:
    return isinstance(body.get("content"), list) and set(body) <= _MCP_RESULT


def _mcp_text(body: dict[str, Any]) -> str:
    texts = [block.get("text") for block in body["content"] if isinstance(block, dict) and block.get("type") == "text"]
    return "".join(text for text in texts if isinstance(text, str))


def _measured(body: dict[str, Any], failed: bool) -> ToolResult:
    if "error" in body:
        return ToolResult(True, str(body["error"]))
    measure = next((form.format_map(_Fields(body)) for key, form in _MEASURES if key in body), "ok")
    return ToolResult(failed, measure + (", truncated" if body.get("truncated") else ""))


class _Fields(dict[str, Any]):
    """A tool answer's fields for its measure: one the answer lacks shows as "?" rather than failing the chat."""

    def __missing__(self, key: str) -> str:
        return "?"


@dataclass
class _Calls:
    """An answer's tool calls waiting for their results, each under the key a result names it by: the harness's
    toolUseId; none in the classic trace, whose observation answers the oldest invocation."""

    ours: frozenset[str]
    waiting: list[tuple[str | None, ToolCall]] = field(default_factory=list)

    def called(self, key: str | None, tool: str, arguments: dict[str, Any]) -> ToolCall:
        call = ToolCall(tool, arguments, tool in self.ours)
        self.waiting.append((key, call))
        return call

    def answered(self, key: str | None, result: ToolResult) -> ToolResult:
        found = next((index for index, (waiting, _) in enumerate(self.waiting) if waiting == key), None)
        if found is None:
            return ToolResult(True, f"a result of no call: {result.summary}")
        _, call = self.waiting.pop(found)
        return dataclasses.replace(result, answers_ours=call.ours)

    def unanswered(self) -> list[NoResult]:
        return [NoResult(call.tool) for _, call in self.waiting]


def failure_of(error: BotoCoreError | ClientError) -> ServiceFailure:
    """The step a failed call is: the service refused it (its error's code and message), or the client could not make
    it (no credentials, no connection)."""
    if isinstance(error, ClientError):
        details = error.response.get("Error", {})
        where = f"from {error.operation_name}"
        return ServiceFailure(str(details.get("Code", "")), where, str(details.get("Message", "")))
    return ServiceFailure(type(error).__name__, "in the client", str(error))


def events_of(response: dict[str, Any], member: str) -> Iterator[Event | ServiceFailure]:
    """The events of `response`'s stream `member`, then the failure that ended it, if one did: botocore reads bytes
    from outside and raises what they make it raise (an exception event; ChecksumMismatch or another ParserError of a
    garbled frame; UnicodeDecodeError, RecursionError, AttributeError, TypeError or ResponseParserError of a payload
    that is not UTF-8, nested too deep or not of its model's shape; urllib3's errors of a lost connection)."""
    try:
        yield from response[member]
    except Exception as error:  # only botocore runs here: whatever it raised, the stream failed
        yield stream_failure(error, response.get(TAP))


def stream_failure(error: Exception, tap: ExceptionTap | None) -> ServiceFailure:
    """The step a stream's failure is: an exception event by its name and message (read from the event itself when
    botocore's model of the operation does not list it, as botocore then keeps neither), or what reading failed on."""
    if not isinstance(error, EventStreamError):
        return ServiceFailure(type(error).__name__, "reading the stream", str(error))
    details = error.response.get("Error", {})
    name, message = str(details.get("Code", "")), str(details.get("Message", ""))
    if not name and tap is not None and tap.exception is not None:
        name, message = exception_of(tap.exception)
    return ServiceFailure(name, "event in the stream", message)


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


def _text(value: object) -> str:
    """A string member of an event: botocore passes on whatever JSON the payload holds, so anything else reads as
    empty."""
    return value if isinstance(value, str) else ""


def _json(value: object) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except RecursionError:
        return "(nested too deep to write as JSON)"


class Harness:
    """An AgentCore harness: its loop calls our Gateway's tools and streams every block of every message. `tools`: our
    tools as its stream names them (the Gateway's `<target>___<tool>`)."""

    def __init__(self, client: Any, arn: str, tools: frozenset[str]) -> None:
        self.client, self.arn, self.tools = client, arn, tools
        tap_exceptions(client, "InvokeHarness")
        # InvokeHarness wants 33-100 characters here; a UUID has 36.
        self.session_id = str(uuid.uuid4())
        self.description = f"AgentCore harness {arn}, session {self.session_id}"

    def ask(self, question: str) -> Iterator[Step]:
        response = self.client.invoke_harness(
            harnessArn=self.arn,
            runtimeSessionId=self.session_id,
            messages=[{"role": "user", "content": [{"text": question}]}],
        )
        return harness_steps(events_of(response, "stream"), self.tools)


@dataclass
class _Block:
    """One content block of a harness message, gathered from its deltas until it stops."""

    start: dict[str, Any] = field(default_factory=dict)
    parts: list[str] = field(default_factory=list)

    def add(self, delta: dict[str, Any]) -> None:
        if "text" in delta:
            self.parts.append(_text(delta["text"]))
        elif "toolUse" in delta:
            self.parts.append(_text(delta["toolUse"].get("input")))
        for item in delta.get("toolResult", []):
            self.parts.append(_text(item["text"]) if "text" in item else _json(item.get("json")))

    def step(self, role: str, calls: _Calls) -> Step | None:
        text = "".join(self.parts)
        if "toolUse" in self.start:
            use = self.start["toolUse"]
            return calls.called(_text(use.get("toolUseId")), _text(use.get("name")), _arguments(text))
        if "toolResult" in self.start:
            result = self.start["toolResult"]
            failed = result.get("status") == "error"
            return calls.answered(_text(result.get("toolUseId")), result_of(text, failed))
        return Answer(text) if role == "assistant" and text else None


def harness_steps(events: Iterable[Event | ServiceFailure], tools: frozenset[str]) -> Iterator[Step]:
    """The steps of an InvokeHarness stream: a block becomes a step when it stops (a tool's input is complete only
    then); text counts as the answer only in the assistant's messages; the calls left without a result and the
    metadata events' usage come last."""
    role = ""
    blocks: dict[int | None, _Block] = {}
    calls = _Calls(tools)
    usages: list[TokenUsage] = []
    for event in events:
        if isinstance(event, ServiceFailure):
            yield event
        elif "messageStart" in event:
            role = _text(event["messageStart"].get("role"))
        elif "contentBlockStart" in event:
            start = event["contentBlockStart"]
            blocks[_index(start)] = _Block(start.get("start", {}))
        elif "contentBlockDelta" in event:
            delta = event["contentBlockDelta"]
            blocks.setdefault(_index(delta), _Block()).add(delta.get("delta", {}))
        elif "contentBlockStop" in event:
            step = blocks.pop(_index(event["contentBlockStop"]), _Block()).step(role, calls)
            if step is not None:
                yield step
        elif "messageStop" in event:
            reason = _text(event["messageStop"].get("stopReason"))
            if reason in _UNFINISHED:
                yield Stopped(reason)
        elif "metadata" in event:
            usages.append(usage_of(event["metadata"].get("usage", {})))
    yield from calls.unanswered()
    yield tokens_of(usages, "the stream had no metadata event")


def _index(event: dict[str, Any]) -> int | None:
    index = event.get("contentBlockIndex")
    return index if isinstance(index, int) else None


def _arguments(text: str) -> dict[str, Any]:
    """A call's input as its arguments; input that is not a JSON object is shown whole, as the argument `input`."""
    try:
        arguments = json.loads(text or "{}")
    except (ValueError, RecursionError):
        return {"input": text}
    return arguments if isinstance(arguments, dict) else {"input": arguments}


class ClassicAgent:
    """A Bedrock Agent (Agents Classic) behind an alias: its trace shows each action group call and what came back.
    `tools`: our tools as the trace names them (`classic_tool_name`)."""

    def __init__(self, client: Any, agent_id: str, alias_id: str, tools: frozenset[str]) -> None:
        self.client, self.agent_id, self.alias_id, self.tools = client, agent_id, alias_id, tools
        tap_exceptions(client, "InvokeAgent")
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
        return agent_steps(events_of(response, "completion"), self.tools)


def classic_tool_name(group: str, verb: str, path: str) -> str:
    """A classic agent's call as it is shown and our tools are known: the action group, the verb and the API path.

    >>> classic_tool_name("search_events", "post", "/events/search")
    'search_events POST /events/search'
    """
    return f"{group} {verb.upper()} {path}"


def agent_steps(events: Iterable[Event | ServiceFailure], tools: frozenset[str]) -> Iterator[Step]:
    """The steps of an InvokeAgent stream: its trace's as they come, then the answer its chunks make (joined before
    decoding: a character may be split between two), the calls left without a result, then the tokens its trace's
    model invocations counted."""
    answer = b""
    calls = _Calls(tools)
    usages: list[TokenUsage] = []
    for event in events:
        if isinstance(event, ServiceFailure):
            yield event
        elif "trace" in event:
            trace = event["trace"].get("trace", {})
            yield from trace_steps(trace, calls)
            usages += trace_usage(trace)
        elif "chunk" in event:
            answer += event["chunk"].get("bytes", b"")
    if answer:
        yield Answer(answer.decode(errors="replace"))
    yield from calls.unanswered()
    yield tokens_of(usages, "the agent's trace counted none")


def trace_steps(trace: dict[str, Any], calls: _Calls) -> Iterator[Step]:
    """The steps one InvokeAgent trace holds: an action group's invocation input, its observation, a failure."""
    orchestration = trace.get("orchestrationTrace", {})
    call = orchestration.get("invocationInput", {}).get("actionGroupInvocationInput")
    if call is not None:
        group, verb, path = (_text(call.get(member)) for member in ("actionGroupName", "verb", "apiPath"))
        yield calls.called(None, classic_tool_name(group, verb, path), _action_arguments(call))
    output = orchestration.get("observation", {}).get("actionGroupInvocationOutput")
    if output is not None:
        yield calls.answered(None, result_of(_text(output.get("text"))))
    if "failureTrace" in trace:
        yield Stopped(_text(trace["failureTrace"].get("failureReason")) or "the agent failed")


def trace_usage(trace: dict[str, Any]) -> list[TokenUsage]:
    """The tokens a trace's model invocation counted: an orchestration, pre- or post-processing or routing trace keeps
    them in its modelInvocationOutput's metadata."""
    parts = [part.get("modelInvocationOutput", {}).get("metadata", {}) for part in trace.values()]
    return [usage_of(metadata["usage"]) for metadata in parts if "usage" in metadata]


def _action_arguments(call: dict[str, Any]) -> dict[str, Any]:
    """An action group call's parameters and request body properties as one object, as a tool call has them."""
    body = [item for items in call.get("requestBody", {}).get("content", {}).values() for item in items]
    return {_text(item.get("name")): item.get("value") for item in [*call.get("parameters", []), *body]}
