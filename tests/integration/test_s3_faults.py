"""Faults in S3 over real HTTP (moto's server behind a fault-injecting proxy): every failure is a clear 503 naming
the dataset, a good cached copy keeps serving, and nothing is half-loaded."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import boto3
import pytest
from moto.server import ThreadedMotoServer
from tooling.local import DATA_DIR, LambdaContext, body_of, sql_event, status_of

from search_core.storage import s3 as s3_storage
from tests.integration.faulty_s3 import FaultyS3

BUCKET = "concierge-faults"
COUNT = "SELECT count(*) AS n FROM events"


@pytest.fixture(scope="module")
def moto_server() -> Iterator[tuple[str, int]]:
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    yield server.get_host_and_port()
    server.stop()


@pytest.fixture
def s3(moto_server: tuple[str, int], monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A fresh bucket on moto's server; the function reaches it only through the proxy."""
    for key, value in {
        "AWS_ACCESS_KEY_ID": "x",
        "AWS_SECRET_ACCESS_KEY": "x",
        "AWS_DEFAULT_REGION": "ap-northeast-1",
    }.items():
        monkeypatch.setenv(key, value)
    client = boto3.client("s3", endpoint_url=f"http://{moto_server[0]}:{moto_server[1]}")
    client.create_bucket(Bucket=BUCKET, CreateBucketConfiguration={"LocationConstraint": "ap-northeast-1"})
    client.put_object(Bucket=BUCKET, Key="events.csv", Body=(DATA_DIR / "events.csv").read_bytes())
    yield client
    for item in client.list_objects_v2(Bucket=BUCKET).get("Contents", []):
        client.delete_object(Bucket=BUCKET, Key=item["Key"])
    client.delete_bucket(Bucket=BUCKET)


@pytest.fixture
def proxy(moto_server: tuple[str, int], monkeypatch: pytest.MonkeyPatch) -> Iterator[FaultyS3]:
    faulty = FaultyS3(moto_server)
    faulty.start()
    monkeypatch.setenv("AWS_ENDPOINT_URL_S3", faulty.endpoint)
    s3_storage._client.cache_clear()
    yield faulty
    faulty.stop()
    s3_storage._client.cache_clear()


@pytest.fixture
def events_fn(load_function: Callable[..., ModuleType], s3: Any, proxy: FaultyS3) -> ModuleType:
    return load_function("search_events", EVENTS_URI=f"s3://{BUCKET}/events.csv", DATA_REFRESH_SECONDS="0")


def count(function: ModuleType) -> dict[str, Any]:
    response: dict[str, Any] = function.lambda_handler(sql_event("search_events", COUNT), LambdaContext())
    return response


def assert_serving(function: ModuleType, rows: int = 32) -> None:
    response = count(function)
    assert (status_of(response), body_of(response)["results"]) == (200, [{"n": rows}])


def assert_unavailable(function: ModuleType, reason: str) -> None:
    response = count(function)
    error = body_of(response)["error"]
    assert status_of(response) == 503 and "「events.csv」" in error and reason in error, error
    assert "x" not in error.split("「events.csv」")[0]  # no credential before the dataset name


@pytest.mark.parametrize(
    ("fault", "reason"),
    [
        ("access-denied", "アクセスが拒否"),
        ("throttled", "S3 から取得できません"),
        ("server-error", "S3 から取得できません"),
    ],
)
def test_a_fault_on_the_first_load_is_a_clear_503(
    events_fn: ModuleType, proxy: FaultyS3, fault: str, reason: str
) -> None:
    proxy.fault = fault
    assert_unavailable(events_fn, reason)
    proxy.fault = None
    assert_serving(events_fn)


def test_a_missing_object_is_a_clear_503(events_fn: ModuleType, s3: Any) -> None:
    s3.delete_object(Bucket=BUCKET, Key="events.csv")
    assert_unavailable(events_fn, "オブジェクトがありません")


@pytest.mark.parametrize("fault", ["access-denied", "throttled", "server-error", "truncate", "down"])
def test_a_good_cached_copy_keeps_serving_through_faults(events_fn: ModuleType, proxy: FaultyS3, fault: str) -> None:
    assert_serving(events_fn)
    if fault == "down":
        proxy.stop()
    else:
        proxy.fault = fault
    for _ in range(3):
        assert_serving(events_fn)


def test_a_truncated_first_download_leaves_nothing_behind(
    events_fn: ModuleType, proxy: FaultyS3, isolated_cache: Path
) -> None:
    proxy.fault = "truncate"
    assert status_of(count(events_fn)) == 503
    assert [p.name for p in isolated_cache.glob("events-*.csv*")] == []  # no copy, complete or partial
    proxy.fault = None
    assert_serving(events_fn)


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (os.urandom(4096), "「events.csv」"),  # DuckDB reads it as one odd column: a header mismatch
        ("event_name,date_time\n朝ヨガ,2025-10-12\n".encode("shift_jis"), "UTF-8"),
        (b"event_name,date_time\nyoga,2025-10-12\n", "足りない列"),
        (b"", "列が仕様と一致しません"),
    ],
)
def test_a_bad_file_is_a_clear_503(events_fn: ModuleType, s3: Any, body: bytes, reason: str) -> None:
    s3.put_object(Bucket=BUCKET, Key="events.csv", Body=body)
    assert_unavailable(events_fn, reason)


def test_a_bad_new_version_is_never_half_loaded(events_fn: ModuleType, s3: Any) -> None:
    assert_serving(events_fn)
    s3.put_object(Bucket=BUCKET, Key="events.csv", Body=b"event_name\nonly,half\n")
    for _ in range(3):
        assert_serving(events_fn)


def test_a_replaced_object_is_picked_up_between_calls(events_fn: ModuleType, s3: Any) -> None:
    assert_serving(events_fn)
    lines = (DATA_DIR / "events.csv").read_bytes().split(b"\r\n")
    header_and_first = b"\r\n".join(lines[:2]) + b"\r\n"
    s3.put_object(Bucket=BUCKET, Key="events.csv", Body=header_and_first)
    assert_serving(events_fn, rows=1)


def test_the_warm_path_makes_no_request_between_checks(
    load_function: Callable[..., ModuleType], s3: Any, proxy: FaultyS3
) -> None:
    function = load_function("search_events", EVENTS_URI=f"s3://{BUCKET}/events.csv", DATA_REFRESH_SECONDS="3600")
    assert_serving(function)
    before = proxy.requests
    for _ in range(20):
        assert_serving(function)
    assert proxy.requests == before
