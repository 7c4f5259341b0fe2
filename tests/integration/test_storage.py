"""The /tmp copy of a dataset: one download, no S3 call between checks, new versions picked up, stale on failure."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tooling.local import DATA_DIR

from search_core.errors import ConfigurationError, DataUnavailable
from search_core.observability import metrics
from search_core.settings import Settings
from search_core.storage import s3 as s3_storage
from search_core.storage.cache import DatasetCopy
from search_core.storage.source import DataSource, resolve_source


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def copy_of(bucket: str, cache: Path, clock: FakeClock, key: str = "data/events.csv") -> DatasetCopy:
    return DatasetCopy(DataSource("events.csv", bucket=bucket, key=key), cache, refresh_interval=60, clock=clock)


def test_first_use_downloads_once(data_bucket: str, tmp_path: Path, clock: FakeClock, s3_calls: list[str]) -> None:
    local = copy_of(data_bucket, tmp_path, clock).current()
    assert local.path.read_bytes() == (DATA_DIR / "events.csv").read_bytes()
    assert s3_calls == ["GetObject data/events.csv"]


def test_a_download_reports_how_long_it_took(data_bucket: str, tmp_path: Path, clock: FakeClock) -> None:
    metrics.clear_metrics()
    copy = copy_of(data_bucket, tmp_path, clock)
    copy.current()
    clock.now += 10
    copy.current()
    timings = metrics.metric_set["DataFetchTime"]["Value"]
    metrics.clear_metrics()
    assert len(timings) == 1 and timings[0] > 0


def test_warm_calls_make_no_s3_call_between_checks(
    data_bucket: str, tmp_path: Path, clock: FakeClock, s3_calls: list[str]
) -> None:
    copy = copy_of(data_bucket, tmp_path, clock)
    first = copy.current()
    for _ in range(5):
        clock.now += 10
        assert copy.current() == first
    assert s3_calls == ["GetObject data/events.csv"]


def test_an_unchanged_object_costs_one_head_per_interval(
    data_bucket: str, tmp_path: Path, clock: FakeClock, s3_calls: list[str]
) -> None:
    copy = copy_of(data_bucket, tmp_path, clock)
    first = copy.current()
    clock.now += 61
    assert copy.current() == first
    assert s3_calls == ["GetObject data/events.csv", "HeadObject data/events.csv"]


def test_a_new_version_is_picked_up_after_the_interval(
    aws: Any, data_bucket: str, tmp_path: Path, clock: FakeClock
) -> None:
    copy = copy_of(data_bucket, tmp_path, clock)
    first = copy.current()
    aws.put_object(Bucket=data_bucket, Key="data/events.csv", Body=b"new,version\n")
    assert copy.current() == first
    clock.now += 61
    second = copy.current()
    assert second.version != first.version
    assert second.path.read_bytes() == b"new,version\n"


def test_a_failed_refresh_keeps_serving_the_cached_copy(
    aws: Any, data_bucket: str, tmp_path: Path, clock: FakeClock
) -> None:
    copy = copy_of(data_bucket, tmp_path, clock)
    first = copy.current()
    aws.delete_object(Bucket=data_bucket, Key="data/events.csv")
    clock.now += 61
    assert copy.current() == first
    assert first.path.exists()


def test_no_copy_at_all_is_unavailable_and_named(data_bucket: str, tmp_path: Path, clock: FakeClock) -> None:
    with pytest.raises(DataUnavailable, match="「events.csv」.*オブジェクトがありません"):
        copy_of(data_bucket, tmp_path, clock, key="missing.csv").current()


def test_a_missing_bucket_is_unavailable_and_leaks_no_credentials(aws: Any, tmp_path: Path, clock: FakeClock) -> None:
    with pytest.raises(DataUnavailable) as failure:
        copy_of("no-such-bucket", tmp_path, clock).current()
    assert "「events.csv」" in failure.value.message
    assert "testing" not in failure.value.message


def test_no_partial_file_is_left_behind(data_bucket: str, tmp_path: Path, clock: FakeClock) -> None:
    with pytest.raises(DataUnavailable):
        copy_of(data_bucket, tmp_path, clock, key="missing.csv").current()
    assert list(tmp_path.glob("*.part")) == []


def test_prune_keeps_only_the_served_copy(aws: Any, data_bucket: str, tmp_path: Path, clock: FakeClock) -> None:
    copy = copy_of(data_bucket, tmp_path, clock)
    copy.current()
    aws.put_object(Bucket=data_bucket, Key="data/events.csv", Body=b"v2\n")
    clock.now += 61
    latest = copy.current()
    copy.prune(keep=latest)
    assert [p.name for p in tmp_path.iterdir()] == [latest.path.name]


def test_a_local_file_is_read_in_place_and_versioned_by_stat(tmp_path: Path, clock: FakeClock) -> None:
    path = tmp_path / "events.csv"
    path.write_text("a\n")
    copy = DatasetCopy(DataSource("events.csv", path=path), tmp_path / "cache", refresh_interval=0, clock=clock)
    first = copy.current()
    path.write_text("a,b\n")
    assert copy.current().path == path
    assert copy.current().version != first.version


def test_unset_uri_outside_lambda_means_the_sample_the_tooling_names() -> None:
    source = resolve_source("events", "events.csv", Settings(in_lambda=False, sample_data_dir=DATA_DIR))
    assert source.path is not None and source.path.read_bytes().startswith(b"event_name,")


def test_unset_uri_and_no_sample_folder_is_a_configuration_error() -> None:
    with pytest.raises(ConfigurationError, match="EVENTS_URI が設定されていない"):
        resolve_source("events", "events.csv", Settings(in_lambda=False))


def test_unset_uri_in_lambda_is_a_configuration_error() -> None:
    with pytest.raises(ConfigurationError, match="EVENTS_URI が設定されていない"):
        resolve_source("events", "events.csv", Settings(in_lambda=True))


@pytest.mark.parametrize("uri", ["s3://", "s3://bucket-only", "s3:///key"])
def test_malformed_s3_uris_are_configuration_errors(uri: str) -> None:
    with pytest.raises(ConfigurationError, match="URI が不正"):
        DataSource.parse("events.csv", uri)


def test_settings_read_the_environment() -> None:
    settings = Settings.from_env(
        {
            "EVENTS_URI": "s3://b/events.csv",
            "AWS_LAMBDA_FUNCTION_NAME": "f",
            "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": "1024",
            "QUERY_TIMEOUT_SECONDS": "2.5",
            "DATA_REFRESH_SECONDS": "30",
        }
    )
    assert settings.dataset_uris == {"events": "s3://b/events.csv"}
    assert (settings.in_lambda, settings.memory_mb, settings.query_timeout_seconds) == (True, 1024, 2.5)
    assert settings.refresh_interval_seconds == 30


@pytest.mark.parametrize("size", [0, 1, 999, 1000, 1001, 4500])
def test_a_large_object_arrives_whole_in_ranged_parts(aws: Any, s3_calls: list[str], tmp_path: Path, size: int) -> None:
    # Given an object of `size` bytes and parts of 1,000 bytes
    aws.create_bucket(Bucket="parts", CreateBucketConfiguration={"LocationConstraint": "ap-northeast-1"})
    body = bytes(range(256)) * (size // 256) + bytes(size % 256)
    etag = aws.put_object(Bucket="parts", Key="cases.duckdb", Body=body)["ETag"]
    # When it is downloaded
    got = s3_storage.download("parts", "cases.duckdb", tmp_path / "copy", "cases.db", part_bytes=1000)
    # Then every byte is in place, from one GET per part (plus the plain GET an empty object needs)
    assert ((tmp_path / "copy").read_bytes(), got) == (body, etag)
    assert len(s3_calls) == max(1, -(-size // 1000)) + (size == 0)
    assert not list(tmp_path.glob("*.part"))


def test_a_part_of_another_version_is_refused(aws: Any, tmp_path: Path) -> None:
    # Given a download pinned to a version that has since been replaced
    aws.create_bucket(Bucket="parts", CreateBucketConfiguration={"LocationConstraint": "ap-northeast-1"})
    old = aws.put_object(Bucket="parts", Key="cases.duckdb", Body=b"a" * 2500)["ETag"]
    aws.put_object(Bucket="parts", Key="cases.duckdb", Body=b"b" * 2500)
    # When it is downloaded in parts, Then nothing is kept and the agent reads why
    with pytest.raises(DataUnavailable, match="取得中に S3 のオブジェクトが更新されました"):
        s3_storage.download("parts", "cases.duckdb", tmp_path / "copy", "cases.db", if_match=old, part_bytes=1000)
    assert list(tmp_path.iterdir()) == []


def test_an_upload_returns_the_new_etag_and_keeps_the_metadata(aws: Any, tmp_path: Path) -> None:
    aws.create_bucket(Bucket="published", CreateBucketConfiguration={"LocationConstraint": "ap-northeast-1"})
    source = tmp_path / "events.csv.duckdb"
    source.write_bytes(b"prepared")
    etag = s3_storage.upload("published", "data/events.csv.duckdb", source, {"source-etag": '"abc"'})
    stored = aws.head_object(Bucket="published", Key="data/events.csv.duckdb")
    assert (etag, stored["Metadata"]) == (stored["ETag"], {"source-etag": '"abc"'})


def test_a_forgotten_client_is_replaced_by_a_new_one(aws: Any) -> None:
    first = s3_storage._client()
    s3_storage.forget_client()
    assert s3_storage._client() is not first


def test_after_forget_client_requests_are_signed_with_the_credentials_of_now(
    aws: Any, data_bucket: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a client made with the credentials of then
    s3_storage.head_etag(data_bucket, "data/events.csv", "events.csv")
    # When the credentials change (as a SnapStart restore finds them) and the client is forgotten
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "RESTORED")
    s3_storage.forget_client()
    signed: list[str] = []
    s3_storage._client().meta.events.register(
        "request-created.s3", lambda request, **_: signed.append(request.headers["Authorization"])
    )
    s3_storage.head_etag(data_bucket, "data/events.csv", "events.csv")
    # Then the next request is signed with the new ones
    assert len(signed) == 1 and "Credential=RESTORED/" in signed[0]
