"""The JST clock and "open now?" macros: Lambda runs in UTC, the shops keep Japan time."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import duckdb
import pytest

from tests.conftest import open_dataset_sandbox

DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> duckdb.DuckDBPyConnection:
    con: duckdb.DuckDBPyConnection = open_dataset_sandbox("stores", tmp_path_factory.mktemp("duckdb"))
    return con


def hours(**days: list[tuple[str, str]]) -> str:
    return json.dumps({d: [{"open": o, "close": c} for o, c in days.get(d, [])] for d in DAYS})


def is_open(con: duckdb.DuckDBPyConnection, opening_hours: str, at: str) -> bool:
    rows = con.execute("SELECT is_open_at(?, CAST(? AS TIMESTAMP))", [opening_hours, at]).fetchall()
    return bool(rows[0][0])


def test_jst_now_is_utc_plus_nine(stores: duckdb.DuckDBPyConnection) -> None:
    jst = stores.execute("SELECT jst_now()").fetchall()[0][0]
    expected = datetime.now(UTC).replace(tzinfo=None) + timedelta(hours=9)
    assert abs((jst - expected).total_seconds()) < 60


def test_jst_today_turns_over_at_midnight_in_japan(stores: duckdb.DuckDBPyConnection) -> None:
    today = stores.execute("SELECT jst_today()").fetchall()[0][0]
    assert today == (datetime.now(UTC) + timedelta(hours=9)).date()


@pytest.mark.parametrize(
    ("at", "expected"),
    [
        ("2025-10-13 09:59", False),  # Monday, before opening
        ("2025-10-13 10:00", True),
        ("2025-10-13 19:59", True),
        ("2025-10-13 20:00", False),  # closing time is exclusive
        ("2025-10-14 12:00", False),  # Tuesday: closed all day
    ],
)
def test_open_within_a_day(stores: duckdb.DuckDBPyConnection, at: str, expected: bool) -> None:
    assert is_open(stores, hours(monday=[("10:00", "20:00")], tuesday=[]), at) is expected


@pytest.mark.parametrize(
    ("at", "expected"),
    [
        ("2025-10-17 23:30", True),  # Friday evening
        ("2025-10-18 01:30", True),  # early Saturday, still Friday's slot
        ("2025-10-18 02:00", False),
        ("2025-10-16 23:30", False),  # Thursday has no slot
        ("2025-10-17 01:00", False),  # early Friday: Thursday's slot would be needed
    ],
)
def test_a_slot_past_midnight_covers_the_next_morning(
    stores: duckdb.DuckDBPyConnection, at: str, expected: bool
) -> None:
    assert is_open(stores, hours(friday=[("18:00", "02:00")]), at) is expected


def test_split_shifts_close_in_between(stores: duckdb.DuckDBPyConnection) -> None:
    lunch_and_dinner = hours(tuesday=[("11:30", "15:00"), ("17:30", "22:00")])
    assert is_open(stores, lunch_and_dinner, "2025-10-14 12:00")
    assert not is_open(stores, lunch_and_dinner, "2025-10-14 16:00")
    assert is_open(stores, lunch_and_dinner, "2025-10-14 18:00")


def test_open_all_day_with_a_24_00_close(stores: duckdb.DuckDBPyConnection) -> None:
    assert is_open(stores, hours(sunday=[("00:00", "24:00")]), "2025-10-19 23:59")


def test_open_now_agrees_with_open_at_jst_now(stores: duckdb.DuckDBPyConnection) -> None:
    rows = stores.execute(
        "SELECT count(*) FILTER (WHERE is_open_now(opening_hours) = is_open_at(opening_hours, jst_now())) = count(*)"
        " FROM stores"
    ).fetchall()
    assert rows == [(True,)]


def test_every_sample_store_has_readable_hours(stores: duckdb.DuckDBPyConnection) -> None:
    nulls = stores.execute("SELECT count(*) FROM stores WHERE is_open_at(opening_hours, jst_now()) IS NULL")
    assert nulls.fetchall() == [(0,)]
