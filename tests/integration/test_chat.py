"""`make chat` against a local endpoint that speaks each AWS service's wire format (tooling/fake_aws.py): DescribeStacks
in XML, InvokeHarness and InvokeAgent as event streams, whose scripted model calls our real functions through the
Gateway door (harness) or the action group event (classic). boto3 is pointed at it by AWS_ENDPOINT_URL_* variables."""

from __future__ import annotations

import io
import json
import os
import subprocess
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from types import ModuleType

import botocore.session
import pytest
from botocore.eventstream import ChecksumMismatch, EventStreamBuffer
from cfnlint.decode import decode_str
from tooling.chat import main
from tooling.eventstream import event_message, exception_message, message
from tooling.fake_aws import FakeAws
from tooling.fake_aws_agents import ScriptedModel, StreamedCall, ToolStep, Turn, WireMessages
from tooling.local import ROOT, sample_functions

from search_core.catalogue import ACTION_GROUPS

STACK = "chat-test"
GATEWAY_URL = "https://chat-test-mcp-abcdefghij.gateway.bedrock-agentcore.ap-northeast-1.amazonaws.com/mcp"
OUTPUTS = {
    "harness": {
        "AgentPlatform": "harness",
        "HarnessArn": "arn:aws:bedrock-agentcore:ap-northeast-1:123456789012:harness/concierge-abcdefghij",
        "GatewayUrl": GATEWAY_URL,
    },
    "classic": {"AgentPlatform": "classic", "AgentId": "AGENT12345", "AgentAliasId": "ALIAS12345"},
    "none": {"AgentPlatform": "none", "GatewayUrl": GATEWAY_URL},
    # A stack deployed before the AgentPlatform parameter: the classic agent's outputs only.
    "before the parameter": {"AgentId": "AGENT12345", "AgentAliasId": "ALIAS12345"},
}
PLATFORMS = ("harness", "classic")
# How each platform names the tool it called: the Gateway's <target>___<tool>, the action group and its operation.
SEARCH_EVENTS = {"harness": "events___searchEvents", "classic": "search_events POST /events/search"}
READ_CASE_TEXT = {"harness": "cases___readCaseText", "classic": "search_cases GET /cases/text"}
# A tool the stack does not have, as each platform would name it.
NOT_OURS = {"harness": "other___anything", "classic": "other_group POST /anything"}
ROWS_BODY = json.dumps({"results": [{"n": 1}], "count": 1, "truncated": False})

FIRST_EVENTS = "SELECT event_name, date_time FROM events ORDER BY start_date LIMIT 3"
ANSWER = "9月に始まるイベントは 防災フェア などです。"
SECOND_ANSWER = "防災フェアは 9月1日からです。"


def stream_exceptions(service: str, operation: str) -> list[str]:
    """The exceptions an operation's event stream may carry, as botocore's model of the service lists them."""
    model = botocore.session.get_session().get_service_model(service)
    stream = model.operation_model(operation).get_event_stream_output()
    return [name for name, shape in stream.members.items() if shape.metadata.get("exception")]


def usage(tokens_in: int, tokens_out: int, cache_read: int, cache_write: int) -> dict[str, int]:
    """One model call's usage as the harness reports it; the classic trace keeps its input and output only."""
    return {
        "inputTokens": tokens_in,
        "outputTokens": tokens_out,
        "totalTokens": tokens_in + tokens_out,
        "cacheReadInputTokens": cache_read,
        "cacheWriteInputTokens": cache_write,
    }


STREAM_EXCEPTIONS = [("harness", name) for name in stream_exceptions("bedrock-agentcore", "InvokeHarness")] + [
    ("classic", name) for name in stream_exceptions("bedrock-agent-runtime", "InvokeAgent")
]
# What a terminal acts on: ESC, BEL, CR, backspace, a C1 CSI, a right-to-left override.
ACTED_ON = {"\x1b", "\x07", "\r", "\x08", "\x9b", "\u202e"}
TWO_MODEL_CALLS = (usage(1200, 80, 1000, 200), usage(1500, 120, 1200, 0))
ONE_MODEL_CALL = (usage(2000, 50, 1500, 0),)
# The first answer's tokens, the second's, the session's.
TOKENS = {
    "harness": (
        "2,700 in, 200 out, 2,900 total, 2,200 read from cache, 200 written to cache",
        "2,000 in, 50 out, 2,050 total, 1,500 read from cache, 0 written to cache",
        "4,700 in, 250 out, 4,950 total, 3,700 read from cache, 200 written to cache",
    ),
    "classic": ("2,700 in, 200 out, 2,900 total", "2,000 in, 50 out, 2,050 total", "4,700 in, 250 out, 4,950 total"),
}


def search_events(sql: str) -> ToolStep:
    return ToolStep("search_events", "searchEvents", {"sql_query": sql})


Serve = Callable[..., FakeAws]


@pytest.fixture(scope="module")
def functions(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, ModuleType]]:
    with sample_functions(ACTION_GROUPS, "chat", tmp_path_factory.mktemp("cache")) as loaded:
        yield loaded


@pytest.fixture
def serve(functions: dict[str, ModuleType], monkeypatch: pytest.MonkeyPatch) -> Iterator[Serve]:
    """serve(platform, *turns): the stack STACK deploying `platform`, its model answering with `turns`, and boto3
    pointed at it."""
    with ExitStack() as running:

        def start(platform: str, *turns: Turn) -> FakeAws:
            aws = running.enter_context(FakeAws(ScriptedModel(functions, list(turns)), {STACK: OUTPUTS[platform]}))
            monkeypatch.delenv("AWS_PROFILE", raising=False)
            for name, value in aws.environment().items():
                monkeypatch.setenv(name, value)
            return aws

        yield start


def ask(question: str, stack: str = STACK) -> int:
    return main(["--stack", stack, "--question", question])


def test_the_outputs_chat_reads_are_the_templates() -> None:
    template, errors = decode_str((ROOT / "template.yaml").read_text(encoding="utf-8"))
    platforms = [OUTPUTS[platform] for platform in ("harness", "classic", "none")]

    assert not errors
    assert {outputs["AgentPlatform"] for outputs in platforms} == set(
        template["Parameters"]["AgentPlatform"]["AllowedValues"]
    )
    assert set().union(*platforms) <= set(template["Outputs"])


def test_the_encoder_frames_messages_as_botocore_decodes_them() -> None:
    buffer = EventStreamBuffer()
    buffer.add_data(event_message("chunk", {"bytes": "5pel"}) + exception_message("throttlingException", "slow down"))
    event, exception = list(buffer)
    assert event.headers == {":event-type": "chunk", ":message-type": "event", ":content-type": "application/json"}
    assert event.payload == b'{"bytes":"5pel"}'
    assert exception.headers[":exception-type"] == "throttlingException"
    assert exception.payload == b'{"message":"slow down"}'


def test_a_corrupted_message_fails_botocore_checksum() -> None:
    message = bytearray(event_message("chunk", {"bytes": "5pel"}))
    message[-6] ^= 1
    buffer = EventStreamBuffer()
    buffer.add_data(bytes(message))
    with pytest.raises(ChecksumMismatch):
        next(buffer)


@pytest.mark.parametrize("platform", PLATFORMS)
def test_each_tool_call_is_printed_with_its_sql_and_rows_before_the_answer(
    serve: Serve, platform: str, capsys: pytest.CaptureFixture[str]
) -> None:
    serve(platform, Turn((search_events(FIRST_EVENTS),), ANSWER))

    status = ask("9月に始まるイベントは？")

    output = capsys.readouterr().out
    assert status == 0
    call, sql, rows, answer = (
        output.index(f"→ {SEARCH_EVENTS[platform]}"),
        output.index(f"sql_query: {FIRST_EVENTS}"),
        output.index("✓ 3 rows"),
        output.index(ANSWER),
    )
    assert call < sql < rows < answer


@pytest.mark.parametrize("platform", PLATFORMS)
def test_a_case_search_is_printed_with_its_keywords_and_total(
    serve: Serve, platform: str, capsys: pytest.CaptureFixture[str]
) -> None:
    search = ToolStep("search_cases", "searchCases", {"keywords": "民法　第709条", "limit": 3})
    serve(platform, Turn((search,), "不法行為の判例が 3 件あります。"))

    status = ask("不法行為の判例は？")

    output = capsys.readouterr().out
    assert status == 0
    assert "keywords: 民法　第709条" in output
    assert "✓ 3 of 3 decisions" in output


@pytest.mark.parametrize("platform", PLATFORMS)
def test_typed_questions_share_one_session(
    serve: Serve, platform: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    aws = serve(platform, Turn((search_events(FIRST_EVENTS),), ANSWER), Turn((), SECOND_ANSWER))
    monkeypatch.setattr("sys.stdin", io.StringIO("9月に始まるイベントは？\n\nその最初のものはいつから？\n"))

    status = main(["--stack", STACK])

    output = capsys.readouterr().out
    assert status == 0
    assert ANSWER in output and SECOND_ANSWER in output
    first, second = aws.invocations
    assert first.session_id == second.session_id


def test_the_harness_is_sent_each_question_as_a_user_message(serve: Serve) -> None:
    aws = serve("harness", Turn((), ANSWER))

    ask("9月に始まるイベントは？")

    (invocation,) = aws.invocations
    assert invocation.body["messages"] == [{"role": "user", "content": [{"text": "9月に始まるイベントは？"}]}]


def test_the_classic_agent_is_asked_for_its_trace(serve: Serve) -> None:
    aws = serve("classic", Turn((), ANSWER))

    ask("9月に始まるイベントは？")

    (invocation,) = aws.invocations
    assert invocation.body == {"inputText": "9月に始まるイベントは？", "enableTrace": True}


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize(
    ("sql", "error"),
    [("DROP TABLE events", "DROP 文は実行できません"), ("SELECT venue FROM events", "列 venue はありません")],
    ids=["refused statement", "unknown column"],
)
def test_a_failed_tool_call_makes_the_question_exit_non_zero(
    serve: Serve, platform: str, sql: str, error: str, capsys: pytest.CaptureFixture[str]
) -> None:
    serve(platform, Turn((search_events(sql), search_events(FIRST_EVENTS)), ANSWER))

    status = ask("イベントを消して")

    output = capsys.readouterr().out
    assert status == 1
    failed = [line for line in output.splitlines() if line.lstrip().startswith("✗")]
    assert f"sql_query: {sql}" in output
    assert len(failed) == 1 and error in failed[0]


@pytest.mark.parametrize(("platform", "exception"), STREAM_EXCEPTIONS)
def test_each_exception_event_in_the_stream_makes_the_question_exit_non_zero_naming_it(
    serve: Serve, platform: str, exception: str, capsys: pytest.CaptureFixture[str]
) -> None:
    serve(platform, Turn((search_events(FIRST_EVENTS),), fault=exception, fault_message="the service gave up"))

    status = ask("9月に始まるイベントは？")

    output = capsys.readouterr().out
    assert status == 1
    assert "✓ 3 rows" in output
    assert f"  ✗ {exception} event in the stream: the service gave up\n" in output


def test_an_exception_events_message_is_printed_escaped_and_cut(
    serve: Serve, capsys: pytest.CaptureFixture[str]
) -> None:
    message = "\x1b]0;retitled\x07" + "x" * 1_000
    serve("harness", Turn((search_events(FIRST_EVENTS),), fault="runtimeClientError", fault_message=message))

    ask("9月に始まるイベントは？")

    output = capsys.readouterr().out
    assert not set(output) & ACTED_ON
    assert "✗ runtimeClientError event in the stream: \\x1b]0;retitled\\x07xxx" in output
    assert f"… ({len(message):,} characters in all)" in output


@pytest.mark.parametrize("platform", PLATFORMS)
def test_an_answer_without_a_tool_call_makes_the_question_exit_non_zero(
    serve: Serve, platform: str, capsys: pytest.CaptureFixture[str]
) -> None:
    serve(platform, Turn((), ANSWER))

    status = ask("9月に始まるイベントは？")

    output = capsys.readouterr().out
    assert status == 1
    assert ANSWER in output
    assert "✗ no tool was called: the model answered from what it knows, not from the data" in output


@pytest.mark.parametrize("platform", PLATFORMS)
def test_each_answer_shows_its_tokens_and_the_session_their_sum(
    serve: Serve, platform: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    serve(
        platform,
        Turn((search_events(FIRST_EVENTS),), ANSWER, usage=TWO_MODEL_CALLS),
        Turn((), SECOND_ANSWER, usage=ONE_MODEL_CALL),
    )
    monkeypatch.setattr("sys.stdin", io.StringIO("9月に始まるイベントは？\nその最初のものはいつから？\n"))

    status = main(["--stack", STACK])

    output = capsys.readouterr().out
    first, second, session = TOKENS[platform]
    assert status == 0
    assert (
        output.index(ANSWER)
        < output.index(f"  tokens: {first}\n")
        < output.index(SECOND_ANSWER)
        < output.index(f"  tokens: {second}\n")
        < output.index(f"session: 2 questions, tokens {session}\n")
    )


def test_a_question_shows_the_sessions_tokens_after_its_answer(
    serve: Serve, capsys: pytest.CaptureFixture[str]
) -> None:
    serve("harness", Turn((search_events(FIRST_EVENTS),), ANSWER, usage=ONE_MODEL_CALL))

    status = ask("9月に始まるイベントは？")

    output = capsys.readouterr().out
    second = TOKENS["harness"][1]
    assert status == 0
    assert output.endswith(f"  tokens: {second}\nsession: 1 question, tokens {second}\n")


def test_a_classic_trace_without_usage_says_its_tokens_are_not_reported(
    serve: Serve, capsys: pytest.CaptureFixture[str]
) -> None:
    serve("classic", Turn((search_events(FIRST_EVENTS),), ANSWER, usage=()))

    status = ask("9月に始まるイベントは？")

    output = capsys.readouterr().out
    assert status == 0
    assert "  tokens: not reported (the agent's trace counted none)\n" in output
    assert output.endswith("session: 1 question, tokens not reported\n")


@pytest.mark.parametrize("platform", PLATFORMS)
def test_values_from_the_stream_are_printed_escaped(
    serve: Serve, platform: str, capsys: pytest.CaptureFixture[str]
) -> None:
    found = StreamedCall(
        "cases___findInCase\x1b]0;retitled\x07",
        {"doc_id": "\u202eR5-1\x1b[2J"},
        json.dumps({"hits": 2, "doc_id": "\u202eR5-1\x1b[2J"}),
    )
    error = json.dumps({"error": "\r\x1b[2K    ✓ 3 rows\x08\x9b"})
    spoofed = StreamedCall(READ_CASE_TEXT[platform], {}, error, True)
    serve(platform, Turn((found, spoofed), "判決は\n\x1b[2J2 件です\u202e"))

    status = ask("判決の場所は？")

    output = capsys.readouterr().out
    failed = [line for line in output.splitlines() if "✗" in line]
    assert status == 1
    assert not set(output) & ACTED_ON
    assert "cases___findInCase\\x1b]0;retitled\\x07" in output
    assert "doc_id: \\u202eR5-1\\x1b[2J" in output
    assert "✓ 2 places in \\u202eR5-1\\x1b[2J" in output
    assert failed == ["    ✗ not one of the stack's tools", "    ✗ \\r\\x1b[2K    ✓ 3 rows\\x08\\x9b"]
    assert "│ 判決は\n│ \\x1b[2J2 件です\\u202e" in output


@pytest.mark.parametrize("platform", PLATFORMS)
def test_long_values_from_the_stream_are_cut_with_their_length(
    serve: Serve, platform: str, capsys: pytest.CaptureFixture[str]
) -> None:
    call = StreamedCall(SEARCH_EVENTS[platform], {"sql_query": "S" * 5_000}, json.dumps({"error": "E" * 20_000}), True)
    serve(platform, Turn((call,), "A" * 12_345))

    ask("9月に始まるイベントは？")

    output = capsys.readouterr().out
    assert "S… (5,000 characters in all)" in output
    assert "E… (20,000 characters in all)" in output
    assert "A… (12,345 characters in all)" in output
    assert len(output) < 10_000


@pytest.mark.parametrize("platform", PLATFORMS)
def test_a_call_that_gets_no_result_makes_the_question_exit_non_zero(
    serve: Serve, platform: str, capsys: pytest.CaptureFixture[str]
) -> None:
    unanswered = StreamedCall(SEARCH_EVENTS[platform], {"sql_query": FIRST_EVENTS}, None)
    serve(platform, Turn((unanswered, search_events(FIRST_EVENTS)), ANSWER))

    status = ask("9月に始まるイベントは？")

    output = capsys.readouterr().out
    assert status == 1
    assert "✓ 3 rows" in output
    assert f"  ✗ no result for {SEARCH_EVENTS[platform]}\n" in output


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("Lambda function timed out after 30s", "(not JSON): Lambda function timed out after 30s"),
        ('{"error": "boom", "n": ' + "9" * 5_000 + "}", "(Exceeds the limit (4300 digits) for integer string"),
        ("[" * 100_000, "(nested too deep to read): [[["),
        ('["ok"]', '(not a JSON object): ["ok"]'),
    ],
    ids=["not JSON", "an integer Python will not read", "nested too deep", "not an object"],
)
def test_a_result_that_is_not_one_of_our_json_bodies_makes_the_question_exit_non_zero(
    serve: Serve, platform: str, text: str, why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    serve(platform, Turn((StreamedCall(SEARCH_EVENTS[platform], {"sql_query": FIRST_EVENTS}, text),), ANSWER))

    status = ask("9月に始まるイベントは？")

    output = capsys.readouterr().out
    assert status == 1
    assert f"    ✗ not a JSON body of ours {why}" in output
    assert output.endswith("session: 1 question, tokens 1 in, 1 out, 2 total\n")


@pytest.mark.parametrize(
    ("result", "status", "shown"),
    [
        ({"content": [{"type": "text", "text": json.dumps({"error": "boom"})}], "isError": True}, 1, "    ✗ boom\n"),
        ({"content": [{"type": "text", "text": "{}"}], "isError": True}, 1, "    ✗ ok\n"),
        ({"content": [{"type": "text", "text": ROWS_BODY}]}, 0, "    ✓ 1 rows\n"),
    ],
    ids=["its error", "its isError", "its body"],
)
def test_an_mcp_tool_result_is_read_for_its_text_and_is_error(
    serve: Serve, result: dict[str, object], status: int, shown: str, capsys: pytest.CaptureFixture[str]
) -> None:
    call = StreamedCall(SEARCH_EVENTS["harness"], {"sql_query": FIRST_EVENTS}, json.dumps(result))
    serve("harness", Turn((call,), ANSWER))

    assert ask("9月に始まるイベントは？") == status
    assert shown in capsys.readouterr().out


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("name", ["{not ours}", "{ours}\u3164"], ids=["another tool", "ours and a blank letter"])
def test_a_call_of_a_tool_not_the_stacks_is_shown_and_makes_the_question_exit_non_zero(
    serve: Serve, platform: str, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    tool = name.format(ours=SEARCH_EVENTS[platform], **{"not ours": NOT_OURS[platform]})
    serve(platform, Turn((StreamedCall(tool, {"sql_query": FIRST_EVENTS}, ROWS_BODY),), ANSWER))

    status = ask("9月に始まるイベントは？")

    output = capsys.readouterr().out
    assert status == 1
    shown_name = tool.replace("\u3164", "\\u3164")
    assert f"  → {shown_name}\n      sql_query: {FIRST_EVENTS}\n    ✗ not one of the stack's tools\n" in output


def test_a_tool_input_nested_too_deep_is_shown_as_its_text(serve: Serve, capsys: pytest.CaptureFixture[str]) -> None:
    serve("harness", Turn((StreamedCall(SEARCH_EVENTS["harness"], "[" * 100_000, ROWS_BODY),), ANSWER))

    ask("9月に始まるイベントは？")

    output = capsys.readouterr().out
    assert "      input: [[[" in output and "… (100,000 characters in all)" in output
    assert f"│ {ANSWER}\n  tokens: 1 in, 1 out, 2 total\n" in output


def test_a_harness_event_without_its_members_is_read_without_them(
    serve: Serve, capsys: pytest.CaptureFixture[str]
) -> None:
    unfinished = WireMessages(
        (
            event_message("messageStart", {}),
            event_message("contentBlockStart", {"start": {"toolUse": {}}}),
            event_message("contentBlockStop", {}),
            event_message("messageStop", {}),
        )
    )
    serve("harness", Turn((search_events(FIRST_EVENTS), unfinished), ANSWER))

    status = ask("9月に始まるイベントは？")

    output = capsys.readouterr().out
    assert status == 1
    assert "  → \n    ✗ not one of the stack's tools\n" in output
    assert f"│ {ANSWER}\n  ✗ no result for \n  tokens: 1 in, 1 out, 2 total\n" in output


def test_a_classic_parameter_without_a_name_is_shown_without_one(
    serve: Serve, capsys: pytest.CaptureFixture[str]
) -> None:
    invocation = {
        "actionGroupName": "search_events",
        "apiPath": "/events/search",
        "verb": "post",
        "parameters": [{"type": "string", "value": FIRST_EVENTS}],
    }
    trace = [
        {"invocationInput": {"invocationType": "ACTION_GROUP", "actionGroupInvocationInput": invocation}},
        {"observation": {"type": "ACTION_GROUP", "actionGroupInvocationOutput": {"text": ROWS_BODY}}},
    ]
    call = WireMessages(tuple(event_message("trace", {"trace": {"orchestrationTrace": part}}) for part in trace))
    serve("classic", Turn((call,), ANSWER))

    status = ask("9月に始まるイベントは？")

    assert status == 0
    assert f"  → {SEARCH_EVENTS['classic']}\n      : {FIRST_EVENTS}\n    ✓ 1 rows\n" in capsys.readouterr().out


def corrupted(frame: bytes) -> bytes:
    """`frame` with one bit of its payload flipped: its message checksum no longer matches."""
    return frame[:-6] + bytes([frame[-6] ^ 1]) + frame[-5:]


def event_of_payload(event_type: str, payload: bytes) -> bytes:
    return message({":event-type": event_type, ":message-type": "event", ":content-type": "application/json"}, payload)


# An event each platform's stream holds, whose payload botocore reads.
EVENT_TYPE = {"harness": "messageStart", "classic": "chunk"}
GARBLED = {
    "a bad checksum": (lambda kind: corrupted(event_message(kind, {})), "ChecksumMismatch"),
    "a payload not in UTF-8": (lambda kind: event_of_payload(kind, b'{"role": "\xff"}'), "UnicodeDecodeError"),
    "a payload nested too deep": (lambda kind: event_of_payload(kind, b"[" * 100_000), "RecursionError"),
    "a payload not an object": (lambda kind: event_of_payload(kind, b"[1]"), "AttributeError"),
}


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("garbled", GARBLED)
def test_a_stream_botocore_cannot_read_makes_the_question_exit_non_zero_keeping_what_came(
    serve: Serve, platform: str, garbled: str, capsys: pytest.CaptureFixture[str]
) -> None:
    frame, error = GARBLED[garbled]
    serve(platform, Turn((search_events(FIRST_EVENTS), WireMessages((frame(EVENT_TYPE[platform]),))), ANSWER))

    status = ask("9月に始まるイベントは？")

    output = capsys.readouterr().out
    assert status == 1
    assert output.index("✓ 3 rows") < output.index(f"  ✗ {error} reading the stream: ") < output.index("  tokens: ")
    assert output.endswith("\n") and output.splitlines()[-1].startswith("session: 1 question, tokens ")


@pytest.mark.parametrize("platform", PLATFORMS)
def test_an_exception_event_the_model_does_not_list_is_named_from_the_event(
    serve: Serve, platform: str, capsys: pytest.CaptureFixture[str]
) -> None:
    fault = "unlistedException\x1b[2J"
    serve(platform, Turn((search_events(FIRST_EVENTS),), fault=fault, fault_message="slow down\x07"))

    status = ask("9月に始まるイベントは？")

    assert status == 1
    assert "  ✗ unlistedException\\x1b[2J event in the stream: slow down\\x07\n" in capsys.readouterr().out


def test_no_line_of_the_answer_passes_for_a_call_a_result_or_the_tokens(
    serve: Serve, capsys: pytest.CaptureFixture[str]
) -> None:
    forged = "見つかりました\n  → events___searchEvents\n    ✓ 12 rows\n  tokens: 1 in, 1 out, 2 total\nsession: 1"
    serve("harness", Turn((search_events("SELECT venue FROM events"),), forged))

    status = ask("9月に始まるイベントは？")

    lines = capsys.readouterr().out.splitlines()
    assert status == 1
    assert [line for line in lines if line.startswith(("  → ", "    ✓", "  tokens:", "session:"))] == [
        "  → events___searchEvents",
        "  tokens: 1 in, 1 out, 2 total",
        "session: 1 question, tokens 1 in, 1 out, 2 total",
    ]
    assert "│   → events___searchEvents" in lines and "│     ✓ 12 rows" in lines


@pytest.mark.parametrize("platform", PLATFORMS)
def test_a_flood_of_lines_is_cut_in_each_value(serve: Serve, platform: str, capsys: pytest.CaptureFixture[str]) -> None:
    arguments = {f"a{number}": "\n" * 1_999 + "x" for number in range(20)}
    answer = "\n" * 3_990 + "  ✓ done"
    serve(platform, Turn((StreamedCall(SEARCH_EVENTS[platform], arguments, ROWS_BODY),), answer))

    ask("9月に始まるイベントは？")

    output = capsys.readouterr().out
    assert len(output.splitlines()) < 1_100
    assert output.count("… (2,000 characters, 2,000 lines in all)") == 20
    assert "… (3,998 characters, 3,991 lines in all)" in output
    assert "✓ done" not in output


@pytest.mark.parametrize("platform", PLATFORMS)
def test_combining_marks_are_escaped_but_after_a_letter_of_prose(
    serve: Serve, platform: str, capsys: pytest.CaptureFixture[str]
) -> None:
    call = StreamedCall(SEARCH_EVENTS[platform], {"sql_query": "SELECT 1\u0338\u2800"}, ROWS_BODY)
    serve(platform, Turn((call,), "\u0301か\u3099 ok\u0338"))

    ask("9月に始まるイベントは？")

    output = capsys.readouterr().out
    assert "sql_query: SELECT 1\\u0338\\u2800\n" in output
    assert "│ \\u0301か\u3099 ok\\u0338\n" in output


def test_a_harness_turn_that_stops_unfinished_makes_the_question_exit_non_zero(
    serve: Serve, capsys: pytest.CaptureFixture[str]
) -> None:
    serve("harness", Turn((search_events(FIRST_EVENTS),), "", stop="max_iterations_exceeded"))

    status = ask("9月に始まるイベントは？")

    assert status == 1
    assert "✗ stopped: max_iterations_exceeded" in capsys.readouterr().out


def test_a_stack_from_before_the_platform_parameter_is_the_classic_agent(
    serve: Serve, capsys: pytest.CaptureFixture[str]
) -> None:
    serve("before the parameter", Turn((search_events(FIRST_EVENTS),), ANSWER))

    status = ask("9月に始まるイベントは？")

    assert status == 0
    assert f"→ {SEARCH_EVENTS['classic']}" in capsys.readouterr().out


def test_a_stack_without_an_agent_points_to_its_gateway(serve: Serve, capsys: pytest.CaptureFixture[str]) -> None:
    serve("none")

    status = ask("9月に始まるイベントは？")

    assert status == 2
    assert GATEWAY_URL in capsys.readouterr().err


def test_a_missing_stack_says_how_to_name_yours(serve: Serve, capsys: pytest.CaptureFixture[str]) -> None:
    serve("harness")

    status = ask("9月に始まるイベントは？", stack="not-deployed")

    error = capsys.readouterr().err
    assert status == 2
    assert "Stack with id not-deployed does not exist" in error and "STACK=<name>" in error


def test_make_chat_with_a_question_exits_non_zero_when_a_tool_call_failed(serve: Serve) -> None:
    aws = serve("harness", Turn((search_events("DROP TABLE events"),), ANSWER))

    run = subprocess.run(
        ["make", "-s", "chat", f"STACK={STACK}", "Q=イベントを消して"],
        cwd=ROOT,
        env={**os.environ, **aws.environment()},
        capture_output=True,
        text=True,
        check=False,
    )

    assert run.returncode != 0
    assert "✗ DROP 文は実行できません" in run.stdout
