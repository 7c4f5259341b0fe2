"""Errors the agent can act on: short, naming the column or value at fault and the way forward."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from search_core.advice.explain import MAX_MESSAGE_CHARS
from search_core.catalogue import SQL_DATASETS
from search_core.errors import SearchError
from tests.conftest import query_sandbox

CASES = [
    # An unknown column lists every column, and finds the JSON column holding it as a key.
    ("events", "SELECT venue FROM events", ["列 venue はありません", "end_date", "location->>'venue'"]),
    ("stores", "SELECT s.venue FROM stores s", ["列 venue はありません", "store_name", "extracted_at"]),
    # A failed conversion names the field and the value at fault, and the functions that convert without failing.
    (
        "events",
        "SELECT * FROM events WHERE CAST(cost->>'amount' AS INTEGER) > 1000",
        ["cost->>'amount' の値 '", "円'", "TRY_CAST", "regexp_replace"],
    ),
    ("events", "SELECT * FROM events WHERE CAST(capacity AS INTEGER) > 10", ["capacity の値 '", "名'", "TRY_CAST"]),
    (
        "events",
        "SELECT * FROM events WHERE date_time::DATE > DATE '2025-01-01'",
        ["date_time の値 '2025-", "/", "regexp_extract"],
    ),
    ("events", "SELECT * FROM events WHERE cost->>'amount'::INT > 1000", ["括弧", "(列->>'amount')::型"]),
    ("events", "SELECT * FROM events WHERE start_date > 'next week'", ["'next week'", "DATE '2025-10-05'"]),
    # Wrong argument types: the types accepted, not every signature.
    ("events", "SELECT sum(capacity) FROM events", ["関数 sum", "VARCHAR", "INTEGER", "TRY_CAST"]),
    ("stores", "SELECT * FROM stores WHERE dayname('2025-10-01') = '日曜'", ["関数 dayname", "DATE", "TIMESTAMP '"]),
    # A macro misused says what it expects, with its worked example.
    (
        "stores",
        "SELECT * FROM stores WHERE is_open_at(opening_hours)",
        ["マクロの引数が合いません", "is_open_at(hours, ts)", "例: SELECT"],
    ),
    (
        "stores",
        "SELECT * FROM stores WHERE is_open_at(opening_hours, 5)",
        ["is_open_at(hours, ts)", "TIMESTAMP '2025-10-05 10:00'"],
    ),
    (
        "stores",
        "SELECT * FROM stores WHERE is_open_at(opening_hours, '日曜 10時')",
        ["'日曜 10時'", "is_open_at(hours, ts)"],
    ),
    # Values of two types compared: the comparison DuckDB underlined, not a macro's usage beside it.
    (
        "events",
        "SELECT * FROM events WHERE capacity > 100000000 AND start_date < jst_today()",
        ["capacity > 100000000 は VARCHAR と INTEGER を比べています", "TRY_CAST(列 AS INTEGER)"],
    ),
    # -> binds after a comparison: the parentheses it needs, not TRY_CAST.
    (
        "stores",
        "SELECT store_name FROM stores WHERE opening_hours->'monday' IS NULL OR category = 'cafe'",
        ["(列->'キー') IS NULL", "->>"],
    ),
    # Comparisons DuckDB underlines by display width: the one at fault, wide characters before it or not.
    (
        "events",
        "SELECT event_name FROM events WHERE location = '東京都渋谷区' AND capacity > '10' AND cost > 0",
        ["cost > 0 は VARCHAR と INTEGER を比べています"],
    ),
    (
        "events",
        "SELECT 1 FROM events WHERE event_name <> '" + "あ" * 18 + "' AND event_name > 5 OR capacity > 3",
        ["event_name > 5 は VARCHAR と INTEGER"],
    ),
    # A cast after an arrow in a comment is no cast.
    ("events", "SELECT * FROM events WHERE event_name > 5 -- ->>'price'::", ["event_name > 5 は VARCHAR と INTEGER"]),
    # DuckDB's advice for the old lambda arrow is a SET the sandbox refuses: the syntax that works instead.
    ("events", "SELECT list_transform([1], x -> x)", ["lambda x: x + 1"]),
    # A JSON function given plain text says how to write JSON, or to use LIKE.
    ("events", "SELECT * FROM events WHERE json_contains(target_audience, '家族')", ["'\"家族\"'", "LIKE '%家族%'"]),
]


@pytest.mark.parametrize(("dataset", "sql", "expected"), CASES, ids=[c[1] for c in CASES])
def test_errors_name_what_is_wrong_and_how_to_go_on(
    sandbox: Callable[..., Any], dataset: str, sql: str, expected: list[str]
) -> None:
    with pytest.raises(SearchError) as raised:
        query_sandbox(sandbox(dataset), SQL_DATASETS[dataset], sql)
    message = raised.value.message
    assert all(part in message for part in expected), message
    assert len(message) <= MAX_MESSAGE_CHARS and "Candidate" not in message and "LINE 1" not in message


def test_a_comparison_of_two_types_blames_the_comparison_not_a_macro_beside_it(sandbox: Callable[..., Any]) -> None:
    sql = "SELECT * FROM events WHERE capacity > 100000000 AND start_date < jst_today()"
    with pytest.raises(SearchError) as raised:
        query_sandbox(sandbox("events"), SQL_DATASETS["events"], sql)
    assert "マクロ" not in raised.value.message and "Binder Error" not in raised.value.message


def test_a_string_where_the_macro_wants_a_timestamp_just_works(sandbox: Callable[..., Any]) -> None:
    spec = SQL_DATASETS["stores"]
    sql = "SELECT store_name FROM stores WHERE is_open_at(opening_hours, '{}')"
    typed = query_sandbox(sandbox("stores"), spec, sql.replace("'{}'", "TIMESTAMP '2025-10-05 10:00'"))
    assert typed.rows and query_sandbox(sandbox("stores"), spec, sql.format("2025-10-05 10:00")).rows == typed.rows


def test_a_very_long_query_error_is_still_short(sandbox: Callable[..., Any]) -> None:
    sql = "SELECT " + " + ".join(f"nothing_{i}" for i in range(500)) + " FROM events"
    with pytest.raises(SearchError) as raised:
        query_sandbox(sandbox("events"), SQL_DATASETS["events"], sql)
    assert len(raised.value.message) <= MAX_MESSAGE_CHARS
