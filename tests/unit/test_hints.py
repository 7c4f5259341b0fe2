"""Zero-row hints: which fields a query tests, and what those fields really hold, nearest spellings first."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from search_core.datasets.events import EVENTS
from search_core.datasets.stores import STORES
from search_core.sql.filters import Condition, conditions, conversions
from search_core.sql.hints import HINTS_BUDGET_CHARS, value_hints
from search_core.sql.profile import FieldProfile, TableProfile, build_profile
from tests.conftest import open_dataset_sandbox

STORE_COLUMNS = {c.name for c in STORES.columns}
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
    found = conditions(sandbox("stores"), f"SELECT * FROM stores s WHERE {where}", STORE_COLUMNS)
    assert [(c.column, c.key, c.operator, c.literals) for c in found] == [expected]


def test_a_condition_on_a_computed_value_keeps_its_text(sandbox: Callable[..., Any]) -> None:
    sql = "SELECT 'あ' FROM stores WHERE '日曜' = strftime(CAST(extracted_at AS TIMESTAMP), '%A') AND upper(1) = '1'"
    [found] = conditions(sandbox("stores"), sql, STORE_COLUMNS)
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
    assert conditions(sandbox("stores"), f"SELECT * FROM stores WHERE {where}", STORE_COLUMNS) == []


@pytest.mark.parametrize(
    ("where", "computed"),
    [("upper(website) = 'X'", "upper(website)"), ("location->>'$.venue.x' = 'z'", "location->>'$.venue.x'")],
)
def test_a_changed_value_or_a_nested_path_is_a_computed_value(
    sandbox: Callable[..., Any], where: str, computed: str
) -> None:
    [found] = conditions(sandbox("stores"), f"SELECT * FROM stores WHERE {where}", STORE_COLUMNS)
    assert found.computed and found.column == computed


def test_conditions_in_subqueries_count_and_unknown_names_do_not(sandbox: Callable[..., Any]) -> None:
    sql = "WITH x AS (SELECT * FROM stores WHERE category = 'カフェ') SELECT * FROM x WHERE nickname = 'a'"
    assert [c.column for c in conditions(sandbox("stores"), sql, STORE_COLUMNS)] == ["category"]


def test_a_query_that_does_not_parse_has_no_conditions(sandbox: Callable[..., Any]) -> None:
    assert conditions(sandbox("stores"), "SELECT FROM WHERE", STORE_COLUMNS) == []


def test_casts_of_columns_and_json_keys_are_found(sandbox: Callable[..., Any]) -> None:
    sql = "SELECT * FROM events WHERE CAST(cost->>'amount' AS INTEGER) > 1000 AND TRY_CAST(capacity AS INT) > 1"
    found = conversions(sandbox("events"), sql, {c.name for c in EVENTS.columns})
    assert [(c.column, c.key, c.type) for c in found] == [("cost", "amount", "INTEGER")]


@pytest.fixture(scope="module")
def stores_profile(tmp_path_factory: pytest.TempPathFactory) -> TableProfile:
    return build_profile(open_dataset_sandbox("stores", tmp_path_factory.mktemp("duckdb")), STORES)


def test_a_synonym_brings_the_words_the_data_uses(stores_profile: TableProfile) -> None:
    [hint] = value_hints([Condition("category", None, "=", ("スーパー",))], stores_profile, JSON_COLUMNS)
    present = {v for v, _ in stores_profile.field("category").values}  # type: ignore[union-attr]
    assert hint.matched is False and set(hint.values) == present


def test_the_nearest_spelling_comes_first(stores_profile: TableProfile) -> None:
    [hint] = value_hints([Condition("location", "building", "LIKE", ("%森JP%",))], stores_profile, JSON_COLUMNS)
    assert hint.values[0] == "麻布台ヒルズ 森JPタワー" and hint.field == "location->>'building'"


def test_a_condition_some_value_passes_is_not_blamed(stores_profile: TableProfile) -> None:
    [hint] = value_hints([Condition("facilities", None, "LIKE", ("%駐車場%",))], stores_profile, JSON_COLUMNS)
    assert hint.matched is True


def test_equality_on_a_json_array_says_how_to_test_an_element(stores_profile: TableProfile) -> None:
    [hint] = value_hints([Condition("facilities", None, "=", ("駐車場",))], stores_profile, JSON_COLUMNS)
    assert hint.matched is False and hint.note is not None and "facilities LIKE '%値%'" in hint.note


def test_a_typed_field_shows_its_range(sandbox: Callable[..., Any]) -> None:
    profile = build_profile(sandbox("events"), EVENTS)
    [hint] = value_hints([Condition("start_date", None, ">", ("2030-01-01",))], profile, set())
    assert hint.values == [] and hint.minimum is not None and hint.maximum is not None and hint.matched is False
    [inside] = value_hints([Condition("start_date", None, ">=", (hint.minimum,))], profile, set())
    assert inside.matched is True


def test_hints_stay_within_their_budget_whatever_the_values() -> None:
    long_values = [(f"{i:03d}" + "長" * 77, 1) for i in range(200)]
    fields = tuple(FieldProfile(f"c{i}", None, 200, 200, long_values, complete=True) for i in range(8))
    profile = TableProfile(200, 200, fields)
    found = [Condition(f"c{i}", None, "LIKE", ("%x%",)) for i in range(8)]
    hints = value_hints(found, profile, set())
    assert 0 < len(hints) <= 5
    assert sum(len(repr(h.to_dict())) for h in hints) <= HINTS_BUDGET_CHARS
