"""Zero-row hints: which fields a query tests, and what those fields really hold, nearest spellings first."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from search_core.advice.filters import Condition, conditions, conversions
from search_core.advice.hints import HINTS_BUDGET_CHARS, RowsPassing, ValueHint, value_hints
from search_core.advice.profile import FieldProfile, TableProfile, build_profile
from search_core.datasets.events import EVENTS
from search_core.datasets.stores import STORES
from tests.conftest import open_dataset_sandbox

STORE_COLUMNS = {c.name for c in STORES.columns}
STORE_TABLES = frozenset(name.lower() for name in STORES.table_names)
JSON_COLUMNS = {c.name for c in STORES.columns if c.is_json}


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        ("category = 'カフェ'", ("category", None, "=", ("カフェ",))),
        ("'カフェ' = category", ("category", None, "=", ("カフェ",))),
        ("CAST(category AS VARCHAR) LIKE '%cafe%'", ("category", None, "LIKE", ("%cafe%",))),
        ("category ILIKE 'カ%'", ("category", None, "ILIKE", ("カ%",))),
        ("category IN ('カフェ', 'バー')", ("category", None, "IN", ("カフェ", "バー"))),
        ("contains(description, '鮨')", ("description", None, "contains", ("鮨",))),
        ("regexp_matches(store_name, '^カフェ')", ("store_name", None, "regexp", ("^カフェ",))),
        ("location->>'floor' = 'B1'", ("location", "floor", "=", ("B1",))),
        ("json_extract_string(location, '$.building') LIKE '%森%'", ("location", "building", "LIKE", ("%森%",))),
        ("s.category = 'バー'", ("category", None, "=", ("バー",))),
    ],
)
def test_the_tested_field_and_literal_are_read_from_the_parse(
    sandbox: Callable[..., Any], where: str, expected: tuple[Any, ...]
) -> None:
    found = conditions(sandbox("stores"), f"SELECT * FROM stores s WHERE {where}", STORE_COLUMNS, STORE_TABLES)
    assert [(c.column, c.key, c.operator, c.literals) for c in found] == [expected]


def test_a_condition_on_a_computed_value_keeps_its_text(sandbox: Callable[..., Any]) -> None:
    sql = "SELECT 'あ' FROM stores WHERE '日曜' = strftime(CAST(extracted_at AS TIMESTAMP), '%A') AND upper(1) = '1'"
    [found] = conditions(sandbox("stores"), sql, STORE_COLUMNS, STORE_TABLES)
    assert (found.column, found.computed, found.literals) == (
        "strftime(CAST(extracted_at AS TIMESTAMP), '%A')",
        True,
        ("日曜",),
    )


@pytest.mark.parametrize(
    "where",
    [
        "NOT (category = 'x')",
        "category NOT IN ('x')",
        "category NOT LIKE '%x%'",
        "CASE WHEN category = 'x' THEN false ELSE true END",
        "category = NULL",
    ],
)
def test_negated_and_null_conditions_are_not_taken_for_causes(sandbox: Callable[..., Any], where: str) -> None:
    assert conditions(sandbox("stores"), f"SELECT * FROM stores WHERE {where}", STORE_COLUMNS, STORE_TABLES) == []


@pytest.mark.parametrize(
    ("where", "computed"),
    [("upper(website) = 'X'", "upper(website)"), ("location->>'$.venue.x' = 'z'", "location->>'$.venue.x'")],
)
def test_a_changed_value_or_a_nested_path_is_a_computed_value(
    sandbox: Callable[..., Any], where: str, computed: str
) -> None:
    [found] = conditions(sandbox("stores"), f"SELECT * FROM stores WHERE {where}", STORE_COLUMNS, STORE_TABLES)
    assert found.computed and found.column == computed


def test_conditions_in_subqueries_count_and_unknown_names_do_not(sandbox: Callable[..., Any]) -> None:
    sql = "WITH x AS (SELECT * FROM stores WHERE category = 'カフェ') SELECT * FROM x WHERE nickname = 'a'"
    assert [c.column for c in conditions(sandbox("stores"), sql, STORE_COLUMNS, STORE_TABLES)] == ["category"]


def test_a_query_that_does_not_parse_has_no_conditions(sandbox: Callable[..., Any]) -> None:
    assert conditions(sandbox("stores"), "SELECT FROM WHERE", STORE_COLUMNS, STORE_TABLES) == []


def test_casts_of_columns_and_json_keys_are_found(sandbox: Callable[..., Any]) -> None:
    sql = "SELECT * FROM events WHERE CAST(cost->>'amount' AS INTEGER) > 1000 AND TRY_CAST(capacity AS INT) > 1"
    found = conversions(sandbox("events"), sql, {c.name for c in EVENTS.columns})
    assert [(c.column, c.key, c.type) for c in found] == [("cost", "amount", "INTEGER")]


@pytest.fixture(scope="module")
def stores_profile(tmp_path_factory: pytest.TempPathFactory) -> TableProfile:
    return build_profile(open_dataset_sandbox("stores", tmp_path_factory.mktemp("duckdb")), STORES)


def _counted_by(con: Any, table: str) -> RowsPassing:
    """Rows passing a condition alone, as DuckDB counts them on the data (what the worker asks through the guard)."""

    def count(condition: Condition) -> int | None:
        row = con.execute(f"SELECT count(*) FROM {table} WHERE {condition.sql}").fetchone()
        return int(row[0]) if row else None

    return count


def _hints_of(sandbox: Callable[..., Any], table: str, where: str) -> list[ValueHint]:
    con = sandbox(table)
    spec = STORES if table == "stores" else EVENTS
    columns = {c.name for c in spec.columns}
    found = conditions(con, f"SELECT * FROM {table} WHERE {where}", columns, frozenset(spec.table_names))
    json_columns = {c.name for c in spec.columns if c.is_json}
    return value_hints(found, build_profile(con, spec), json_columns, _counted_by(con, table))


def test_a_synonym_brings_the_words_the_data_uses(sandbox: Callable[..., Any], stores_profile: TableProfile) -> None:
    [hint] = _hints_of(sandbox, "stores", "category = 'スーパー'")
    present = {v for v, _ in stores_profile.field("category").values}  # type: ignore[union-attr]
    assert (hint.matched, hint.matching_rows) == (False, 0) and set(hint.values) == present


def test_the_nearest_spelling_comes_first(stores_profile: TableProfile) -> None:
    found = [Condition("location", "building", "LIKE", ("%森JP%",))]
    [hint] = value_hints(found, stores_profile, JSON_COLUMNS, lambda c: None)
    assert hint.values[0] == "麻布台ヒルズ 森JPタワー" and hint.field == "location->>'building'"
    assert hint.matched is None and hint.condition == "location->>'building' LIKE '%森JP%'"


def test_a_condition_some_row_passes_is_not_blamed(sandbox: Callable[..., Any]) -> None:
    [hint] = _hints_of(sandbox, "stores", "facilities LIKE '%駐車場%'")
    assert hint.matched is True and hint.matching_rows and hint.condition == "facilities LIKE '%駐車場%'"


def test_equality_on_a_json_array_says_how_to_test_an_element(sandbox: Callable[..., Any]) -> None:
    [hint] = _hints_of(sandbox, "stores", "facilities = '駐車場'")
    assert hint.matched is False and hint.note is not None and "facilities LIKE '%値%'" in hint.note


def test_a_typed_field_shows_its_range(sandbox: Callable[..., Any]) -> None:
    [hint] = _hints_of(sandbox, "events", "start_date > '2030-01-01'")
    assert hint.values == [] and hint.minimum is not None and hint.maximum is not None and hint.matched is False
    [inside] = _hints_of(sandbox, "events", f"start_date >= '{hint.minimum}'")
    assert inside.matched is True


@pytest.mark.parametrize(
    "where",
    [
        "start_date >= TIMESTAMP '2026-01-04 00:00:00'",  # a DATE compared with a TIMESTAMP, not as text
        "json_extract(location, '$.venue') = '\"森美術館\"'",  # JSON compared as JSON
        "registration_required = true",  # DuckDB reads 'True' = true as true
    ],
)
def test_matched_is_what_duckdb_finds_not_a_replay(sandbox: Callable[..., Any], where: str) -> None:
    [hint] = _hints_of(sandbox, "events", where)
    row = sandbox("events").execute(f"SELECT count(*) FROM events WHERE {where}").fetchone()
    assert row[0] > 0 and (hint.matched, hint.matching_rows) == (True, row[0])


def test_a_json_arrays_text_is_not_its_elements(sandbox: Callable[..., Any]) -> None:
    [hint] = _hints_of(sandbox, "events", "target_audience LIKE '家族%'")
    assert (hint.matched, hint.matching_rows) == (False, 0) and "家族" in hint.values


def test_hints_stay_within_their_budget_whatever_the_values() -> None:
    long_values = [(f"{i:03d}" + "長" * 77, 1) for i in range(200)]
    fields = tuple(FieldProfile(f"c{i}", None, 200, 200, long_values, complete=True) for i in range(8))
    profile = TableProfile(200, 200, fields)
    found = [Condition(f"c{i}", None, "LIKE", ("%x%",)) for i in range(8)]
    hints = value_hints(found, profile, set(), lambda c: None)
    assert 0 < len(hints) <= 5
    assert sum(len(repr(h.to_dict())) for h in hints) <= HINTS_BUDGET_CHARS


@pytest.mark.parametrize(
    "sql",
    [
        "WITH t AS (SELECT store_name AS category FROM stores) SELECT * FROM t WHERE category = 'カフェ'",
        "WITH stores AS (SELECT store_name AS category FROM stores) SELECT * FROM stores WHERE category = 'カフェ'",
        "SELECT * FROM (VALUES ('x')) v(category) WHERE category = 'カフェ'",
        "SELECT * FROM (SELECT {'category': 'x'} AS s) WHERE s.category = 'カフェ'",
        "SELECT * FROM stores a JOIN stores b USING (store_name) WHERE a.category = 'カフェ'",
    ],
)
def test_a_name_that_may_mean_another_column_is_not_taken_for_the_tables(sandbox: Callable[..., Any], sql: str) -> None:
    assert conditions(sandbox("stores"), sql, STORE_COLUMNS, STORE_TABLES) == []


def test_conditions_where_the_rows_come_from_count_and_those_in_expressions_do_not(sandbox: Callable[..., Any]) -> None:
    sql = (
        "WITH cafes AS (SELECT * FROM stores WHERE category = 'カフェ') SELECT * FROM cafes "
        "UNION ALL SELECT * FROM (SELECT * FROM stores s WHERE s.facilities LIKE '%駐車場%') "
        "WHERE store_name IN (SELECT store_name FROM stores WHERE description LIKE '%x%')"
    )
    found = conditions(sandbox("stores"), sql, STORE_COLUMNS, STORE_TABLES)
    assert sorted(c.sql or "" for c in found) == ["(category = 'カフェ')", "(facilities ~~ '%駐車場%')"]
