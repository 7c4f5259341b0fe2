"""Zero-row hints and the profile operation, end to end: real Bedrock events through each SQL function."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from tooling.local import DATA_DIR, LambdaContext, body_of, profile_event, sample_functions, sql_event, status_of

from search_core.catalogue import SQL_DATASETS
from search_core.doors.envelope import response_bytes
from search_core.engine.budget import BUDGET_BYTES

GROUPS = [f"search_{name}" for name in SQL_DATASETS]


@pytest.fixture(scope="module")
def functions(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, ModuleType]]:
    with sample_functions(GROUPS, "hints", tmp_path_factory.mktemp("cache")) as loaded:
        yield loaded


def ask(functions: dict[str, ModuleType], event: dict[str, Any]) -> dict[str, Any]:
    response: dict[str, Any] = functions[event["actionGroup"]].lambda_handler(event, LambdaContext())
    return response


def test_rows_come_without_hints_or_message(functions: dict[str, ModuleType]) -> None:
    body = body_of(
        ask(functions, sql_event("search_stores", "SELECT store_name FROM stores WHERE category = 'カフェ'"))
    )
    assert body["count"] > 0 and "hints" not in body and "message" not in body


def test_a_first_page_says_how_to_count_and_page(functions: dict[str, ModuleType]) -> None:
    body = body_of(ask(functions, sql_event("search_events", "SELECT event_name FROM events")))
    assert body["truncated"] is True and "count(*)" in body["message"] and "OFFSET 10" in body["message"]


def test_no_rows_names_the_condition_no_value_passes_and_lists_the_values_there(
    functions: dict[str, ModuleType],
) -> None:
    sql = "SELECT store_name FROM stores WHERE facilities LIKE '%駐車場%' AND category = 'スーパー'"
    body = body_of(ask(functions, sql_event("search_stores", sql)))
    assert body["count"] == 0
    assert "category = 'スーパー'" in body["message"] and "facilities" not in body["message"]
    assert "profileStores" not in body["message"]  # the hints are the way forward
    by_field = {hint["field"]: hint for hint in body["hints"]}
    assert by_field["category"]["matched"] is False and "マーケット" in by_field["category"]["values"]
    assert by_field["facilities"]["matched"] is True


def test_a_date_outside_the_data_gets_its_range(functions: dict[str, ModuleType]) -> None:
    body = body_of(ask(functions, sql_event("search_events", "SELECT * FROM events WHERE start_date > '2031-01-01'")))
    [hint] = body["hints"]
    assert hint["field"] == "start_date" and hint["maximum"] < "2031-01-01" and hint["matched"] is False
    assert "データに合う行がない条件: start_date > '2031-01-01'" in body["message"]
    assert f"start_date のデータは {hint['minimum']}〜{hint['maximum']}（ほかに値のない行が 1 件）" in body["message"]


def test_a_computed_value_gets_the_values_it_takes(functions: dict[str, ModuleType]) -> None:
    sql = "SELECT event_name FROM events WHERE dayname(start_date) = '日曜日'"
    [hint] = body_of(ask(functions, sql_event("search_events", sql)))["hints"]
    assert hint["field"] == "dayname(start_date)" and hint["matched"] is False and "Sunday" in hint["values"]


def test_a_computed_value_is_asked_through_the_guard(functions: dict[str, ModuleType]) -> None:
    sql = "SELECT * FROM events WHERE concat(event_name, current_setting('temp_directory')) = 'x'"
    response = ask(functions, sql_event("search_events", sql))
    assert status_of(response) == 400 and "current_setting" in body_of(response)["error"]


def test_no_rows_without_a_tested_field_points_to_the_profile(functions: dict[str, ModuleType]) -> None:
    sql = "SELECT * FROM (FROM events) t WHERE t.event_name IS NULL"
    body = body_of(ask(functions, sql_event("search_events", sql)))
    assert body["count"] == 0 and "hints" not in body and "profileEvents" in body["message"]


def test_no_rows_from_a_limit_says_the_where_had_rows(functions: dict[str, ModuleType]) -> None:
    body = body_of(ask(functions, sql_event("search_events", "SELECT * FROM events LIMIT 0")))
    assert body["count"] == 0 and "32 件" in body["message"] and "LIMIT" in body["message"]
    assert "profileEvents" not in body["message"]


@pytest.mark.parametrize("group", GROUPS)
def test_the_profile_lists_every_column_with_its_values_within_the_budget(
    functions: dict[str, ModuleType], group: str
) -> None:
    response = ask(functions, profile_event(group))
    body = body_of(response)
    spec = SQL_DATASETS[group.removeprefix("search_")]
    assert status_of(response) == 200 and response_bytes(response) <= BUDGET_BYTES
    assert [c["name"] for c in body["columns"]] == [c.name for c in spec.columns]
    assert all(
        c["summary"].get("top_values") or c["summary"].get("samples") or "minimum" in c["summary"]
        for c in body["columns"]
    )


def test_the_profile_of_one_column_lists_more_of_its_values(functions: dict[str, ModuleType]) -> None:
    whole = body_of(ask(functions, profile_event("search_stores")))
    one = body_of(ask(functions, profile_event("search_stores", "facilities")))
    [column] = one["columns"]
    [listed] = [c for c in whole["columns"] if c["name"] == "facilities"]
    assert len(column["summary"]["top_values"]) > len(listed["summary"]["top_values"]) == 10
    assert listed["summary"]["others"] == listed["summary"]["distinct"] - 10 > 0  # says that more were left out
    with (DATA_DIR / "stores.csv").open(encoding="utf-8-sig") as sample:
        parking = sum("駐車場" in json.loads(row["facilities"]) for row in csv.DictReader(sample))
    assert column["summary"]["top_values"][0] == {"value": "駐車場", "count": parking}


def test_an_unknown_column_in_the_profile_is_422_listing_the_columns(functions: dict[str, ModuleType]) -> None:
    response = ask(functions, profile_event("search_events", "venue"))
    assert status_of(response) == 422
    assert "列 venue はありません" in body_of(response)["error"] and "location" in body_of(response)["error"]


def test_hints_and_profile_of_huge_values_fit_the_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = (DATA_DIR / "events.csv").read_text(encoding="utf-8").splitlines()
    header = lines[0]
    huge = ",".join(["x" * 30_000, "y" * 30_000, "2025-10-01", '"{""venue"": ""' + "会" * 5_000 + '""}"'] + [""] * 8)
    (tmp_path / "events.csv").write_text(header + "\n" + huge + "\n", encoding="utf-8")
    with sample_functions(["search_events"], "huge", tmp_path / "cache", EVENTS_URI=str(tmp_path / "events.csv")) as f:
        for event in (
            profile_event("search_events"),
            sql_event("search_events", "SELECT * FROM events WHERE event_name LIKE '%z%' AND location->>'venue' = 'a'"),
        ):
            response = ask(f, event)
            assert status_of(response) == 200 and response_bytes(response) <= BUDGET_BYTES
