"""`make chat` against a local endpoint that speaks each AWS service's wire format (tooling/fake_aws.py): DescribeStacks
in XML, InvokeHarness and InvokeAgent as event streams, whose scripted model calls our real functions through the
Gateway door (harness) or the action group event (classic). boto3 is pointed at it by AWS_ENDPOINT_URL_* variables."""

from __future__ import annotations

import io
import os
import subprocess
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from types import ModuleType

import pytest
from botocore.eventstream import ChecksumMismatch, EventStreamBuffer
from cfnlint.decode import decode_str
from tooling.chat import main
from tooling.eventstream import event_message, exception_message
from tooling.fake_aws import FakeAws
from tooling.fake_aws_agents import ScriptedModel, ToolStep, Turn
from tooling.local import ROOT

from search_core.catalogue import ACTION_GROUPS
from tests.conftest import sample_functions

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

FIRST_EVENTS = "SELECT event_name, date_time FROM events ORDER BY start_date LIMIT 3"
ANSWER = "9月に始まるイベントは 防災フェア などです。"


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
    aws = serve(platform, Turn((search_events(FIRST_EVENTS),), ANSWER), Turn((), "防災フェアは 9月1日からです。"))
    monkeypatch.setattr("sys.stdin", io.StringIO("9月に始まるイベントは？\n\nその最初のものはいつから？\n"))

    status = main(["--stack", STACK])

    output = capsys.readouterr().out
    assert status == 0
    assert ANSWER in output and "防災フェアは 9月1日からです。" in output
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


@pytest.mark.parametrize("platform", PLATFORMS)
def test_an_exception_in_the_stream_makes_the_question_exit_non_zero(
    serve: Serve, platform: str, capsys: pytest.CaptureFixture[str]
) -> None:
    serve(platform, Turn((search_events(FIRST_EVENTS),), fault="internalServerException"))

    status = ask("9月に始まるイベントは？")

    output = capsys.readouterr().out
    assert status == 1
    assert "✓ 3 rows" in output
    assert "✗ An error occurred (internalServerException)" in output


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
