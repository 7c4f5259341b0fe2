"""The contract, end to end: real Bedrock events through lambda_handler, data served from a moto S3 bucket."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from tooling.local import DATA_DIR, LambdaContext, body_of, load_event, sql_event, status_of
from tooling.processes import children

from search_core.doors.envelope import response_bytes
from search_core.engine.budget import BUDGET_BYTES, TRUNCATION_MARKER


@pytest.fixture
def events_fn(load_function: Callable[..., ModuleType], data_bucket: str) -> ModuleType:
    return load_function("search_events", EVENTS_URI=f"s3://{data_bucket}/data/events.csv")


@pytest.fixture
def stores_fn(load_function: Callable[..., ModuleType], data_bucket: str) -> ModuleType:
    return load_function("search_stores", STORES_URI=f"s3://{data_bucket}/data/stores.csv")


def call(function: ModuleType, event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    response: dict[str, Any] = function.lambda_handler(event, context)
    return response


def test_free_events(events_fn: ModuleType, lambda_context: LambdaContext) -> None:
    response = call(events_fn, load_event("search_events/free_events.json"), lambda_context)
    body = body_of(response)
    assert status_of(response) == 200
    assert body["count"] == len(body["results"]) == 10
    assert body["truncated"] is True
    assert all('"is_free": true' in row["cost"] for row in body["results"])


def test_october_includes_periods_that_span_months(events_fn: ModuleType, lambda_context: LambdaContext) -> None:
    body = body_of(call(events_fn, load_event("search_events/october_events.json"), lambda_context))
    names = [row["event_name"] for row in body["results"]]
    assert names[0] == "現代アート展「光と影」"  # 2025-09-20/2025-11-30, sorted by start_date
    assert "ナイトマーケット" in names


def test_legacy_quoted_file_name_and_month_prefix(events_fn: ModuleType, lambda_context: LambdaContext) -> None:
    body = body_of(call(events_fn, load_event("search_events/legacy_month_prefix.json"), lambda_context))
    assert body["count"] > 0
    assert all(row["date_time"].startswith("2025-10") for row in body["results"])


@pytest.mark.parametrize("table", ["'events.csv'", '"events.csv"', "events.csv", "events"])
def test_every_spelling_of_the_table_names_the_same_data(
    events_fn: ModuleType, lambda_context: LambdaContext, table: str
) -> None:
    body = body_of(call(events_fn, sql_event("search_events", f"SELECT count(*) AS n FROM {table}"), lambda_context))
    assert body["results"] == [{"n": 32}]


def test_response_shape_and_session_attributes_are_echoed(events_fn: ModuleType, lambda_context: LambdaContext) -> None:
    event = load_event("search_events/count_by_venue.json")
    response = call(events_fn, event, lambda_context)
    assert response["messageVersion"] == "1.0"
    assert response["response"]["actionGroup"] == event["actionGroup"]
    assert response["response"]["apiPath"] == "/events/search"
    assert response["response"]["httpMethod"] == "POST"
    assert response["sessionAttributes"] == event["sessionAttributes"]
    assert response["promptSessionAttributes"] == event["promptSessionAttributes"]


def test_japanese_is_sent_as_utf8_not_escaped(events_fn: ModuleType, lambda_context: LambdaContext) -> None:
    response = call(events_fn, load_event("search_events/count_by_venue.json"), lambda_context)
    raw = response["response"]["responseBody"]["application/json"]["body"]
    assert "麻布台ヒルズ" in raw
    assert "\\u" not in raw


def test_no_hit_says_so_and_which_condition_no_value_passes(
    events_fn: ModuleType, lambda_context: LambdaContext
) -> None:
    event = sql_event("search_events", "SELECT * FROM events WHERE event_name = '存在しないイベント'")
    body = body_of(call(events_fn, event, lambda_context))
    assert (body["results"], body["count"], body["truncated"]) == ([], 0, False)
    assert body["message"].startswith("検索条件に一致するイベントが見つかりませんでした。")
    assert "event_name = '存在しないイベント'" in body["message"]
    assert body["hints"][0]["field"] == "event_name" and body["hints"][0]["matched"] is False


def test_store_no_hit_message(stores_fn: ModuleType, lambda_context: LambdaContext) -> None:
    event = sql_event("search_stores", "SELECT * FROM stores WHERE store_name = 'なし'")
    message = body_of(call(stores_fn, event, lambda_context))["message"]
    assert message.startswith("検索条件に一致する店舗が見つかりませんでした。")


def test_store_opening_hours(stores_fn: ModuleType, lambda_context: LambdaContext) -> None:
    body = body_of(call(stores_fn, load_event("search_stores/opening_hours.json"), lambda_context))
    assert body["count"] == 1
    hours = json.loads(body["results"][0]["opening_hours"])
    assert hours["monday"] == [{"open": "10:00", "close": "20:00"}]


def test_parking_and_family(stores_fn: ModuleType, lambda_context: LambdaContext) -> None:
    body = body_of(call(stores_fn, load_event("search_stores/parking_family.json"), lambda_context))
    assert body["count"] >= 3
    assert all("駐車場" in r["facilities"] and "家族" in r["target_audience"] for r in body["results"])


def test_open_now_and_closed_on_sunday_run(stores_fn: ModuleType, lambda_context: LambdaContext) -> None:
    open_now = call(stores_fn, load_event("search_stores/open_now.json"), lambda_context)
    closed = body_of(call(stores_fn, load_event("search_stores/closed_on_sunday.json"), lambda_context))
    assert status_of(open_now) == 200
    assert "寿司 いっけん" in [r["store_name"] for r in closed["results"]]


@pytest.mark.parametrize(
    ("event_name", "expected"),
    [
        ("search_events/rejected_read_file.json", "テーブル関数 read_text() は使えません"),
        ("search_events/rejected_drop.json", "SELECT 文を 1 つだけ"),
    ],
)
def test_rejected_queries_are_400_in_japanese(
    events_fn: ModuleType, lambda_context: LambdaContext, event_name: str, expected: str
) -> None:
    response = call(events_fn, load_event(event_name), lambda_context)
    assert status_of(response) == 400
    assert expected in body_of(response)["error"]


def test_update_is_rejected(stores_fn: ModuleType, lambda_context: LambdaContext) -> None:
    response = call(stores_fn, load_event("search_stores/rejected_update.json"), lambda_context)
    assert (status_of(response), "UPDATE 文は実行できません" in body_of(response)["error"]) == (400, True)


def test_unknown_column_error_lists_the_columns_and_the_key(
    events_fn: ModuleType, lambda_context: LambdaContext
) -> None:
    response = call(events_fn, load_event("search_events/unknown_column.json"), lambda_context)
    error = body_of(response)["error"]
    assert status_of(response) == 400
    assert "列 venue はありません" in error and "start_date" in error and "location->>'venue'" in error
    assert "/tmp" not in error


def test_unknown_api_path_is_404(events_fn: ModuleType, lambda_context: LambdaContext) -> None:
    response = call(events_fn, load_event("search_events/unknown_path.json"), lambda_context)
    assert status_of(response) == 404
    assert "/events/delete" in body_of(response)["error"]


def test_missing_sql_query_is_422_naming_the_field(events_fn: ModuleType, lambda_context: LambdaContext) -> None:
    response = call(events_fn, load_event("search_events/invalid_missing_sql.json"), lambda_context)
    assert status_of(response) == 422
    assert body_of(response)["error"] == "リクエストが不正です: sql_query: 必須です"


def test_wrongly_typed_sql_query_is_422(stores_fn: ModuleType, lambda_context: LambdaContext) -> None:
    response = call(stores_fn, load_event("search_stores/invalid_wrong_type.json"), lambda_context)
    assert status_of(response) == 422
    assert "sql_query: 文字列である必要があります" in body_of(response)["error"]


def test_a_malformed_event_still_gets_a_bedrock_response(events_fn: ModuleType, lambda_context: LambdaContext) -> None:
    response = call(events_fn, {"apiPath": 3, "sessionAttributes": {"k": "v"}}, lambda_context)
    assert status_of(response) == 422
    assert response["sessionAttributes"] == {"k": "v"}
    assert "apiPath" in body_of(response)["error"]


def test_huge_values_are_cut_to_fit_the_budget(events_fn: ModuleType, lambda_context: LambdaContext) -> None:
    event = sql_event("search_events", "SELECT event_name, repeat(description, 500) AS long FROM events")
    response = call(events_fn, event, lambda_context)
    body = body_of(response)
    assert response_bytes(response) <= BUDGET_BYTES
    assert body["truncated"] is True and body["count"] == 10
    assert all(row["long"].endswith(TRUNCATION_MARKER) for row in body["results"])


def test_missing_object_is_503_naming_the_dataset(
    load_function: Callable[..., ModuleType], data_bucket: str, lambda_context: LambdaContext
) -> None:
    function = load_function("search_events", EVENTS_URI=f"s3://{data_bucket}/nope/events.csv")
    response = call(function, load_event("search_events/free_events.json"), lambda_context)
    assert status_of(response) == 503
    error = body_of(response)["error"]
    assert "「events.csv」" in error and "testing" not in error


def test_unset_uri_in_lambda_is_503_with_a_clear_message(
    load_function: Callable[..., ModuleType], lambda_context: LambdaContext
) -> None:
    function = load_function("search_stores", AWS_LAMBDA_FUNCTION_NAME="search-stores")
    response = call(function, load_event("search_stores/opening_hours.json"), lambda_context)
    assert status_of(response) == 503
    assert "STORES_URI が設定されていない" in body_of(response)["error"]


def test_unset_uri_locally_serves_the_bundled_sample(
    load_function: Callable[..., ModuleType], lambda_context: LambdaContext
) -> None:
    function = load_function("search_events")
    body = body_of(call(function, sql_event("search_events", "SELECT count(*) AS n FROM events"), lambda_context))
    assert body["results"] == [{"n": 32}]


def first_rows_of_sample_events(count: int) -> bytes:
    with (DATA_DIR / "events.csv").open(encoding="utf-8", newline="") as sample:
        rows = list(csv.reader(sample))
    out = io.StringIO()
    csv.writer(out).writerows(rows[: count + 1])
    return out.getvalue().encode()


@pytest.fixture
def refreshing_events_fn(load_function: Callable[..., ModuleType], data_bucket: str) -> ModuleType:
    """The events function re-validating its data on every call, already serving the 32 sample events."""
    function = load_function(
        "search_events", EVENTS_URI=f"s3://{data_bucket}/data/events.csv", DATA_REFRESH_SECONDS="0"
    )
    assert body_of(call(function, COUNT, LambdaContext()))["results"] == [{"n": 32}]
    return function


COUNT = sql_event("search_events", "SELECT count(*) AS n FROM events")


def test_a_new_object_version_is_served_without_a_cold_start(
    refreshing_events_fn: ModuleType, aws: Any, data_bucket: str, lambda_context: LambdaContext
) -> None:
    function, count = refreshing_events_fn, COUNT
    aws.put_object(Bucket=data_bucket, Key="data/events.csv", Body=first_rows_of_sample_events(3))
    assert body_of(call(function, count, lambda_context))["results"] == [{"n": 3}]


def test_large_data_is_served_from_one_table_file_per_version(
    refreshing_events_fn: ModuleType, aws: Any, data_bucket: str, lambda_context: LambdaContext
) -> None:
    function = refreshing_events_fn
    search = function.function.service
    search.limits = replace(search.limits, table_file_min_bytes=0)  # every CSV counts as large
    aws.put_object(Bucket=data_bucket, Key="data/events.csv", Body=first_rows_of_sample_events(3))
    assert body_of(call(function, COUNT, lambda_context))["results"] == [{"n": 3}]
    table_files = sorted((function.function.service.settings.cache_dir / "events-worker").glob("*.duckdb"))
    aws.put_object(Bucket=data_bucket, Key="data/events.csv", Body=first_rows_of_sample_events(5))
    assert body_of(call(function, COUNT, lambda_context))["results"] == [{"n": 5}]
    replaced = sorted((function.function.service.settings.cache_dir / "events-worker").glob("*.duckdb"))
    assert len(table_files) == len(replaced) == 1 and table_files != replaced  # the old file left with its worker


def worker_processes(work_dir: Path) -> list[int]:
    """The worker processes of this test process that run in `work_dir`."""
    return [pid for pid in children() if Path(f"/proc/{pid}/cwd").resolve() == work_dir.resolve()]


def test_one_worker_serves_and_none_is_left_idle(events_fn: ModuleType, lambda_context: LambdaContext) -> None:
    work_dir = events_fn.function.service.settings.cache_dir / "events-worker"
    rejected = sql_event("search_events", "DROP TABLE events")
    for event in (rejected, COUNT, rejected, COUNT):
        call(events_fn, event, lambda_context)
    assert len(worker_processes(work_dir)) == 1
    events_fn.function.service.close()
    assert worker_processes(work_dir) == []


def test_a_broken_new_version_keeps_the_last_good_data(
    refreshing_events_fn: ModuleType, aws: Any, data_bucket: str, lambda_context: LambdaContext
) -> None:
    function, count = refreshing_events_fn, COUNT
    aws.put_object(Bucket=data_bucket, Key="data/events.csv", Body="壊れた,ヘッダー\n".encode("shift_jis"))
    assert body_of(call(function, count, lambda_context))["results"] == [{"n": 32}]
    aws.delete_object(Bucket=data_bucket, Key="data/events.csv")
    assert body_of(call(function, count, lambda_context))["results"] == [{"n": 32}]
