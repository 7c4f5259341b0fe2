"""Layer 3: every query is bounded: at most 10 rows, a deadline, and values the agent can read."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import duckdb
import pytest

from search_core.datasets.events import EVENTS
from search_core.engine.budget import TRUNCATION_MARKER
from search_core.engine.limits import MAX_ROWS, QueryLimits
from search_core.errors import QueryAborted, QueryRejected
from search_core.safety.policy import QueryPolicy
from search_core.worker.execute import run_query
from tests.conftest import query_sandbox


@pytest.fixture
def events(sandbox: Callable[..., Any]) -> duckdb.DuckDBPyConnection:
    con: duckdb.DuckDBPyConnection = sandbox("events")
    return con


def run(con: duckdb.DuckDBPyConnection, sql: str, limits: QueryLimits) -> Any:
    return query_sandbox(con, EVENTS, sql, limits)


def test_no_limit_is_clamped_to_ten_rows_and_flagged(
    events: duckdb.DuckDBPyConnection, test_limits: QueryLimits
) -> None:
    result = run(events, "SELECT event_name FROM events", test_limits)
    assert len(result.rows) == MAX_ROWS
    assert result.truncated


def test_a_larger_limit_is_clamped(events: duckdb.DuckDBPyConnection, test_limits: QueryLimits) -> None:
    result = run(events, "SELECT event_name FROM events LIMIT 25", test_limits)
    assert (len(result.rows), result.truncated) == (MAX_ROWS, True)


def test_a_smaller_limit_is_kept(events: duckdb.DuckDBPyConnection, test_limits: QueryLimits) -> None:
    result = run(events, "SELECT event_name FROM events LIMIT 3", test_limits)
    assert (len(result.rows), result.truncated) == (3, False)


def test_exactly_ten_rows_are_not_flagged(events: duckdb.DuckDBPyConnection, test_limits: QueryLimits) -> None:
    result = run(events, "SELECT * FROM range(10)", test_limits)
    assert (len(result.rows), result.truncated) == (10, False)


def test_order_by_is_respected(events: duckdb.DuckDBPyConnection, test_limits: QueryLimits) -> None:
    sql = "SELECT event_name FROM events ORDER BY start_date DESC NULLS LAST, event_name"
    expected = [list(row) for row in events.execute(sql).fetchall()[:MAX_ROWS]]
    assert run(events, sql, test_limits).rows == expected


def test_aggregates_see_the_whole_table(events: duckdb.DuckDBPyConnection, test_limits: QueryLimits) -> None:
    assert run(events, "SELECT count(*) AS n FROM events", test_limits).rows == [[32]]


def test_repeated_column_names_keep_every_value(events: duckdb.DuckDBPyConnection, test_limits: QueryLimits) -> None:
    result = run(events, "SELECT 1 AS x, 2 AS x", test_limits)
    assert (result.columns, result.rows) == (["x", "x_1"], [[1, 2]])


def test_a_repeated_name_never_takes_a_name_the_query_wrote(
    events: duckdb.DuckDBPyConnection, test_limits: QueryLimits
) -> None:
    result = run(events, "SELECT 1 AS a, 2 AS a, 3 AS a_1", test_limits)
    assert dict(zip(result.columns, result.rows[0], strict=True)) == {"a": 1, "a_2": 2, "a_1": 3}


def test_a_float_is_the_number_it_was_written_as(events: duckdb.DuckDBPyConnection, test_limits: QueryLimits) -> None:
    row = run(events, "SELECT 0.1::FLOAT AS f, 1.1::REAL AS r, 0.1::DOUBLE AS d", test_limits).rows[0]
    assert row == [0.1, 1.1, 0.1]


def test_values_become_json_types(events: duckdb.DuckDBPyConnection, test_limits: QueryLimits) -> None:
    sql = (
        "SELECT DATE '2025-10-01' AS d, 1.5::DECIMAL(4,2) AS m, [1, 2] AS l, {'a': 1} AS s,"
        " 'NaN'::DOUBLE AS f, now() AS t"
    )
    row = run(events, sql, test_limits).rows[0]
    assert row[:5] == ["2025-10-01", 1.5, [1, 2], {"a": 1}, "nan"]
    assert isinstance(row[5], str)


def test_huge_values_are_clipped_with_a_marker(events: duckdb.DuckDBPyConnection, test_limits: QueryLimits) -> None:
    result = run(events, "SELECT repeat('あ', 100000) AS long", test_limits)
    assert result.rows[0][0].endswith(TRUNCATION_MARKER)
    assert len(result.rows[0][0]) == test_limits.max_cell_chars + len(TRUNCATION_MARKER)
    assert result.truncated


def test_a_slow_query_is_interrupted_at_the_deadline(events: duckdb.DuckDBPyConnection) -> None:
    limits = QueryLimits.for_function(2048, timeout_seconds=0.5)
    started = time.monotonic()
    with pytest.raises(QueryAborted, match=r"制限時間（0\.5 秒）"):
        run(events, "SELECT count(*) FROM range(1000000000000)", limits)
    assert time.monotonic() - started < 3
    assert run(events, "SELECT count(*) FROM events", limits).rows == [[32]]


def test_a_query_is_interrupted_at_the_deadline_it_is_given_and_told_the_whole_timeout(
    events: duckdb.DuckDBPyConnection,
) -> None:
    limits = QueryLimits.for_function(2048, timeout_seconds=30.0)
    policy = QueryPolicy.for_connection(events, EVENTS.table, EVENTS.table_names)
    started = time.monotonic()
    with pytest.raises(QueryAborted, match=r"制限時間（30 秒）"):
        run_query(events, "SELECT count(*) FROM range(1000000000000)", policy, limits, EVENTS, started + 0.3)
    assert time.monotonic() - started < 3


def test_a_finished_query_is_never_interrupted_later(events: duckdb.DuckDBPyConnection) -> None:
    limits = QueryLimits.for_function(2048, timeout_seconds=0.2)
    run(events, "SELECT 1", limits)
    time.sleep(0.3)
    assert run(events, "SELECT count(*) FROM range(1000)", limits).rows == [[1000]]


def test_the_guard_runs_first(events: duckdb.DuckDBPyConnection, test_limits: QueryLimits) -> None:
    with pytest.raises(QueryRejected):
        run(events, "SELECT * FROM read_text('/etc/hostname')", test_limits)
