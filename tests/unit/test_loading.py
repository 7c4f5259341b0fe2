"""CSV files become their tables: quirks survive, helper columns are right, bad files are named and refused."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from search_core.datasets.events import EVENTS
from search_core.errors import DataUnavailable

HEADER = [c.name for c in EVENTS.csv_columns]


def write_events(path: Path, rows: list[dict[str, str]], *, bom: bool = False, newline: str = "\r\n") -> Path:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=HEADER, lineterminator=newline, restval="")
    writer.writeheader()
    writer.writerows(rows)
    path.write_bytes(("\ufeff" if bom else "").encode() + buffer.getvalue().encode("utf-8"))
    return path


def test_quotes_commas_and_newlines_inside_fields_survive(sandbox: Callable[..., Any], tmp_path: Path) -> None:
    tricky = 'ジャズ "Autumn Leaves", 秋の夜\n2 行目'
    con = sandbox("events", write_events(tmp_path / "e.csv", [{"event_name": tricky, "date_time": "2025-10-18"}]))
    assert con.execute("SELECT event_name FROM events").fetchall() == [(tricky,)]


@pytest.mark.parametrize(("bom", "newline"), [(True, "\r\n"), (True, "\n"), (False, "\r\n")])
def test_bom_and_line_ends_do_not_leak_into_names_or_values(
    sandbox: Callable[..., Any], tmp_path: Path, bom: bool, newline: str
) -> None:
    path = write_events(
        tmp_path / "e.csv", [{"event_name": "朝ヨガ", "target_audience": "[]"}], bom=bom, newline=newline
    )
    con = sandbox("events", path)
    assert con.execute("SELECT event_name, target_audience FROM events").fetchall() == [("朝ヨガ", "[]")]


def test_sample_stores_file_has_a_bom_and_loads(sandbox: Callable[..., Any]) -> None:
    con = sandbox("stores")
    assert con.execute("SELECT count(*) FROM stores WHERE store_name = '麻布台ヒルズマーケット'").fetchall() == [(1,)]


@pytest.mark.parametrize(
    ("date_time", "start", "end"),
    [
        ("2025-10-18", "2025-10-18", "2025-10-18"),
        ("2025-09-20/2025-11-30", "2025-09-20", "2025-11-30"),
        (" 2025-12-31 / 2026-01-01 ", "2025-12-31", "2026-01-01"),
        ("未定", None, None),
        ("", None, None),
    ],
)
def test_start_and_end_dates_are_typed_helpers(
    sandbox: Callable[..., Any], tmp_path: Path, date_time: str, start: str | None, end: str | None
) -> None:
    con = sandbox("events", write_events(tmp_path / "e.csv", [{"event_name": "x", "date_time": date_time}]))
    row = con.execute("SELECT CAST(start_date AS VARCHAR), CAST(end_date AS VARCHAR) FROM events").fetchall()[0]
    assert row == (start, end)


def test_a_period_spanning_months_counts_for_each_month(sandbox: Callable[..., Any]) -> None:
    con = sandbox("events")
    october = "start_date <= DATE '2025-10-31' AND end_date >= DATE '2025-10-01'"
    spans = con.execute(f"SELECT event_name FROM events WHERE {october} AND date_time LIKE '2025-09%'").fetchall()
    assert ("現代アート展「光と影」",) in spans
    naive = con.execute("SELECT count(*) FROM events WHERE date_time LIKE '2025-10%'").fetchall()[0][0]
    right = con.execute(f"SELECT count(*) FROM events WHERE {october}").fetchall()[0][0]
    assert right > naive


def test_a_file_that_is_not_utf8_is_refused_by_name(sandbox: Callable[..., Any], tmp_path: Path) -> None:
    path = tmp_path / "e.csv"
    path.write_bytes((",".join(HEADER) + "\r\n" + "イベント" + "," * (len(HEADER) - 1) + "\r\n").encode("shift_jis"))
    with pytest.raises(DataUnavailable, match="「events.csv」は UTF-8"):
        sandbox("events", path)


def test_a_header_that_does_not_match_the_spec_names_the_missing_columns(
    sandbox: Callable[..., Any], tmp_path: Path
) -> None:
    path = tmp_path / "e.csv"
    path.write_text("event_name,date_time\n朝ヨガ,2025-10-12\n", encoding="utf-8")
    with pytest.raises(DataUnavailable, match="「events.csv」の列が仕様と一致しません.*description"):
        sandbox("events", path)


def test_load_errors_never_show_the_host_path(sandbox: Callable[..., Any], tmp_path: Path) -> None:
    path = tmp_path / "e.csv"
    path.write_text(",".join(HEADER) + '\n"unterminated,' + "a," * 20 + "\n", encoding="utf-8")
    with pytest.raises(DataUnavailable, match="「events.csv」を読み込めません") as refused:
        sandbox("events", path)
    assert str(tmp_path) not in refused.value.message
