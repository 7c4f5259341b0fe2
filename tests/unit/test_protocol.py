"""The messages between the function and its worker survive the trip unchanged, errors keep their kind."""

from __future__ import annotations

import pytest

from search_core.advice.hints import ClockNote, ClockRange, EmptyAnswer, ValueHint
from search_core.catalogue import SQL_DATASETS
from search_core.engine.limits import QueryLimits
from search_core.errors import (
    ConfigurationError,
    DataUnavailable,
    NotFound,
    QueryAborted,
    QueryFailed,
    QueryRejected,
    SearchError,
)
from search_core.worker.protocol import (
    Boot,
    Failure,
    FailureKind,
    Hinted,
    Query,
    Ready,
    Rows,
    decode_reply,
    decode_request,
    encode,
)
from search_core.worker.result import QueryResult


@pytest.mark.parametrize("name", SQL_DATASETS)
def test_a_boot_carries_the_whole_table_spec_and_nothing_else(name: str) -> None:
    spec = SQL_DATASETS[name]
    boot = Boot(
        table=spec.table_spec(),
        limits=QueryLimits.for_function(1769, 5.0),
        work_dir="/tmp/w",
        csv_path=None,
        database="/tmp/w/events.duckdb",
        host_paths=("/var/task", "/opt/python"),
    )
    line = encode(boot)
    assert "\n" not in line
    assert decode_request(line) == boot
    assert spec.title not in line and spec.examples[0].sql not in line  # the agent-facing text stays behind


def test_queries_and_replies_round_trip() -> None:
    assert decode_request(encode(Query("SELECT '改行\n'"))) == Query("SELECT '改行\n'")
    assert decode_reply(encode(Ready())) == Ready()
    rows = Rows(QueryResult(["n", "name"], [[1, "麻布台"], [None, "x\ny"]], truncated=True), hints_follow=True)
    assert decode_reply(encode(rows)) == rows


def test_why_an_answer_is_empty_crosses_typed() -> None:
    hint = ValueHint("tags", "tags LIKE '%子ども%'", ["子供"], 3, matched=False, matching_rows=0)
    why = EmptyAnswer([hint], ClockNote([ClockRange("start_date", "2025-01-01", "2025-12-31", 2)], 0), where_rows=0)
    arrived = decode_reply(encode(Hinted(why)))
    assert arrived == Hinted(why)
    assert isinstance(arrived, Hinted) and isinstance(arrived.why.hints[0], ValueHint)


@pytest.mark.parametrize(
    ("error", "kind", "arrives_as"),
    [
        (QueryRejected("x"), FailureKind.REJECTED, QueryRejected),
        (QueryFailed("x"), FailureKind.FAILED, QueryFailed),
        (QueryAborted("x"), FailureKind.ABORTED, QueryAborted),
        (DataUnavailable("x"), FailureKind.UNAVAILABLE, DataUnavailable),
        (ConfigurationError("x"), FailureKind.UNAVAILABLE, DataUnavailable),
        (NotFound("x"), FailureKind.FAILED, QueryFailed),  # never sent by the worker; still crosses as an error
    ],
)
def test_each_error_crosses_as_its_kind(error: SearchError, kind: FailureKind, arrives_as: type[SearchError]) -> None:
    failure = decode_reply(encode(Failure.of(error)))
    assert failure == Failure(kind, "x")
    assert isinstance(failure, Failure)
    back = failure.error()
    assert type(back) is arrives_as and back.message == "x"


@pytest.mark.parametrize("line", ['{"type": "rows"}', '{"type": "Boot"}', '{"type": "shell", "cmd": "id"}'])
def test_a_line_of_the_wrong_shape_is_refused(line: str) -> None:
    with pytest.raises((ValueError, KeyError)):
        decode_request(line)
