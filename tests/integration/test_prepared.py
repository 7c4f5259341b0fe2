"""Prepared data: a published dataset is served from its DuckDB file; a CSV changed without it, or a file made for
another spec, falls back to the CSV; nothing of an invalid CSV is uploaded."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import duckdb
import pytest
from tooling.local import DATA_DIR, LambdaContext, body_of, sql_event

from search_core.datasets.events import EVENTS
from search_core.engine.prepare import InvalidData
from search_core.kinds.sql_table.publish import publish
from search_core.kinds.sql_table.service import prepared_form
from search_core.storage import s3 as s3_storage
from tests.integration.test_handlers import first_rows_of_sample_events

KEY = "data/events.csv"
COUNT = sql_event("search_events", "SELECT count(*) AS n FROM events")


def count(function: ModuleType) -> int:
    rows = body_of(function.lambda_handler(COUNT, LambdaContext()))["results"]
    return int(rows[0]["n"])


def served_copies(cache: Path) -> list[str]:
    """The suffixes of the dataset copies in the cache: .duckdb for a prepared file, .csv for the CSV."""
    return sorted(path.suffix for path in cache.glob("events-*") if path.is_file())


@pytest.fixture
def bucket(aws: Any) -> str:
    aws.create_bucket(Bucket="published", CreateBucketConfiguration={"LocationConstraint": "ap-northeast-1"})
    return "published"


@pytest.fixture
def events_on(load_function: Callable[..., ModuleType], bucket: str) -> Callable[[], ModuleType]:
    return lambda: load_function("search_events", EVENTS_URI=f"s3://{bucket}/{KEY}", DATA_REFRESH_SECONDS="0")


def test_a_published_dataset_is_served_from_its_prepared_file(
    bucket: str, events_on: Callable[[], ModuleType], isolated_cache: Path, s3_calls: list[str]
) -> None:
    publish(EVENTS, DATA_DIR / "events.csv", bucket, KEY)
    s3_calls.clear()  # the publisher's own calls
    assert count(events_on()) == 32
    assert served_copies(isolated_cache) == [".duckdb"]
    assert s3_calls == [f"HeadObject {KEY}", f"HeadObject {KEY}.duckdb", f"GetObject {KEY}.duckdb"]


def test_a_csv_replaced_without_its_prepared_file_is_served_from_the_csv(
    aws: Any, bucket: str, events_on: Callable[[], ModuleType], isolated_cache: Path
) -> None:
    publish(EVENTS, DATA_DIR / "events.csv", bucket, KEY)
    function = events_on()
    assert count(function) == 32
    aws.put_object(Bucket=bucket, Key=KEY, Body=first_rows_of_sample_events(3))
    assert count(function) == 3
    assert served_copies(isolated_cache) == [".csv"]


def test_republishing_serves_the_new_prepared_file(
    bucket: str, events_on: Callable[[], ModuleType], isolated_cache: Path, tmp_path: Path
) -> None:
    publish(EVENTS, DATA_DIR / "events.csv", bucket, KEY)
    function = events_on()
    assert count(function) == 32
    smaller = tmp_path / "events.csv"
    smaller.write_bytes(first_rows_of_sample_events(5))
    publish(EVENTS, smaller, bucket, KEY)
    assert count(function) == 5
    assert served_copies(isolated_cache) == [".duckdb"]


@pytest.mark.parametrize(
    "metadata",
    [
        {"fingerprint": "0000000000000000"},  # made for another spec or DuckDB release
        {"source-etag": '"not-the-csv"'},  # made from another version of the CSV
        {},  # not ours at all
    ],
    ids=["other-spec", "other-csv", "untagged"],
)
def test_a_prepared_file_that_does_not_match_is_ignored(
    aws: Any, bucket: str, events_on: Callable[[], ModuleType], isolated_cache: Path, metadata: dict[str, str]
) -> None:
    etag = s3_storage.upload(bucket, KEY, DATA_DIR / "events.csv")
    tags = {**prepared_form(EVENTS).metadata(etag), **metadata} if metadata else {}
    aws.put_object(Bucket=bucket, Key=f"{KEY}.duckdb", Body=b"not a database", Metadata=tags)
    assert count(events_on()) == 32
    assert served_copies(isolated_cache) == [".csv"]


def test_an_invalid_csv_is_reported_by_line_and_nothing_is_uploaded(aws: Any, bucket: str, tmp_path: Path) -> None:
    header, *rows = csv.reader(io.StringIO(first_rows_of_sample_events(4).decode()))
    rows[2][header.index("location")] = '{"venue": 会場'  # line 4: the header is line 1
    csv_path = tmp_path / "events.csv"
    with csv_path.open("w", encoding="utf-8", newline="") as out:
        csv.writer(out).writerows([header, *rows])
    with pytest.raises(InvalidData, match=r"列 location: JSON として読めない値（1 件、行 4）"):
        publish(EVENTS, csv_path, bucket, KEY)
    assert "Contents" not in aws.list_objects_v2(Bucket=bucket)


def test_a_version_replaced_while_it_downloads_is_not_taken(aws: Any, bucket: str, tmp_path: Path) -> None:
    first = s3_storage.upload(bucket, KEY, DATA_DIR / "events.csv")
    aws.put_object(Bucket=bucket, Key=KEY, Body=first_rows_of_sample_events(3))
    with pytest.raises(Exception, match="取得中に S3 のオブジェクトが更新されました"):
        s3_storage.download(bucket, KEY, tmp_path / "copy.csv", "events.csv", if_match=first)
    assert not (tmp_path / "copy.csv").exists()


def test_a_prepared_file_that_will_not_open_gives_way_to_its_csv(
    aws: Any, bucket: str, events_on: Callable[[], ModuleType], isolated_cache: Path, s3_calls: list[str]
) -> None:
    etag = s3_storage.upload(bucket, KEY, DATA_DIR / "events.csv")
    tags = prepared_form(EVENTS).metadata(etag)
    aws.put_object(Bucket=bucket, Key=f"{KEY}.duckdb", Body=b"damaged in transit" * 1000, Metadata=tags)
    s3_calls.clear()  # the upload's own calls
    function = events_on()
    assert count(function) == 32
    assert count(function) == 32
    assert served_copies(isolated_cache) == [".csv"]
    assert s3_calls.count(f"GetObject {KEY}.duckdb") == 1 and s3_calls.count(f"GetObject {KEY}") == 1


def test_a_forged_prepared_file_with_the_right_tags_brings_no_code(
    aws: Any, bucket: str, events_on: Callable[[], ModuleType], isolated_cache: Path, tmp_path: Path
) -> None:
    """The red team's forged file: the published one, plus macros that override a built-in and read a setting,
    uploaded again with the published object's own tags. It is refused and the CSV serves."""
    publish(EVENTS, DATA_DIR / "events.csv", bucket, KEY)
    forged = tmp_path / "forged.duckdb"
    forged.write_bytes(aws.get_object(Bucket=bucket, Key=f"{KEY}.duckdb")["Body"].read())
    with duckdb.connect(str(forged)) as writer:
        writer.execute("CREATE MACRO upper(x) AS current_setting('temp_directory')")
    tags = aws.head_object(Bucket=bucket, Key=f"{KEY}.duckdb")["Metadata"]
    aws.put_object(Bucket=bucket, Key=f"{KEY}.duckdb", Body=forged.read_bytes(), Metadata=tags)
    function = events_on()
    answer = body_of(function.lambda_handler(sql_event("search_events", "SELECT upper('ok') AS u"), LambdaContext()))
    assert answer["results"] == [{"u": "OK"}]
    assert served_copies(isolated_cache) == [".csv"]
