"""Shared fixtures: handlers loaded the way Lambda loads them, real Bedrock events, moto-backed S3."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import boto3
import pytest
from moto import mock_aws
from tooling.local import (
    DATA_DIR,
    LambdaContext,
    close_function,
    data_variables,
    import_function,
)
from tooling.publish import publish_catalogue

os.environ.setdefault("POWERTOOLS_TRACE_DISABLED", "1")
os.environ.setdefault("POWERTOOLS_METRICS_NAMESPACE", "BedrockAgentSearchTests")
os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")

from search_core.catalogue import ACTION_GROUPS, SQL_DATASETS
from search_core.datasets.spec import DatasetSpec
from search_core.engine.limits import QueryLimits
from search_core.engine.loading import load_dataset
from search_core.engine.sandbox import open_sandbox
from search_core.kinds.case_law.service import CaseSearch
from search_core.kinds.case_law.store.database import open_cases
from search_core.kinds.case_law.store.index import CaseIndex
from search_core.safety.policy import QueryPolicy
from search_core.settings import Settings
from search_core.storage import s3 as s3_storage
from search_core.storage.cache import LocalCopy
from search_core.worker.execute import run_query
from search_core.worker.result import QueryResult


@pytest.fixture
def lambda_context() -> LambdaContext:
    return LambdaContext()


TEST_LIMITS = QueryLimits.for_function(memory_mb=2048, timeout_seconds=3.0)


@pytest.fixture
def test_limits() -> QueryLimits:
    return TEST_LIMITS


def write_export(path: Path, rows: Iterable[dict[str, Any]]) -> Path:
    """`rows` written to `path` as a JSONL export of decisions, one object a line."""
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    return path


def searching_cases(rows: Iterable[dict[str, Any]], work: Path) -> CaseSearch:
    """A case-law search over `rows`, written as an export into `work` and prepared there on first use."""
    source = write_export(work / "cases.jsonl", rows)
    return CaseSearch(Settings(dataset_uris={"cases": str(source)}, cache_dir=work / "cache"))


@contextmanager
def opened_cases(source: Path, work: Path) -> Iterator[CaseIndex]:
    """The decisions of `source` prepared into `work` and opened as the function opens them, closed after."""
    opened = open_cases(LocalCopy(source, source.name), TEST_LIMITS, work)
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture(autouse=True)
def isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv("DATA_CACHE_DIR", str(cache))
    for name in _DATA_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    return cache


_DATA_VARIABLES = data_variables()


@pytest.fixture
def load_function(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., ModuleType]]:
    """A fresh import of a function with `env` set; its worker is stopped afterwards."""
    loaded: list[ModuleType] = []

    def load(name: str, **env: str) -> ModuleType:
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        module = import_function(name, f"{name}_app_{len(loaded)}")
        loaded.append(module)
        return module

    yield load
    for module in loaded:
        close_function(module)


@pytest.fixture
def aws(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """In-process moto S3; the storage module's cached client is rebuilt inside the mock."""
    for key, value in {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_SESSION_TOKEN": "testing",
        "AWS_DEFAULT_REGION": "ap-northeast-1",
    }.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("AWS_ENDPOINT_URL_S3", raising=False)
    with mock_aws():
        s3_storage._client.cache_clear()
        yield boto3.client("s3", region_name="ap-northeast-1")
    s3_storage._client.cache_clear()


@pytest.fixture
def s3_calls(aws: Any) -> list[str]:
    """The storage module's S3 calls from now on, as "Operation key"."""
    calls: list[str] = []
    s3_storage._client().meta.events.register(
        "provide-client-params.s3", lambda params, model, **_: calls.append(f"{model.name} {params['Key']}")
    )
    return calls


@contextmanager
def published_samples(bucket: str = "published-samples") -> Iterator[dict[str, str]]:
    """For module-scoped fixtures: in-process moto S3 holding every dataset published as `make upload-data` does
    (each CSV with its prepared DuckDB file); yields the variables that point the functions at it."""
    with pytest.MonkeyPatch.context() as patch, mock_aws():
        patch.setenv("AWS_DEFAULT_REGION", "ap-northeast-1")
        patch.delenv("AWS_ENDPOINT_URL_S3", raising=False)
        s3_storage._client.cache_clear()
        boto3.client("s3").create_bucket(
            Bucket=bucket, CreateBucketConfiguration={"LocationConstraint": "ap-northeast-1"}
        )
        list(publish_catalogue(bucket))
        yield {g.data_variable: f"s3://{bucket}/{g.default_key}" for g in ACTION_GROUPS.values()}
    s3_storage._client.cache_clear()


@pytest.fixture
def data_bucket(aws: Any) -> str:
    """A bucket holding each SQL dataset's sample CSV alone (no prepared file: the fallback path)."""
    bucket = "concierge-data"
    aws.create_bucket(Bucket=bucket, CreateBucketConfiguration={"LocationConstraint": "ap-northeast-1"})
    for spec in SQL_DATASETS.values():
        aws.put_object(Bucket=bucket, Key=f"data/{spec.file_name}", Body=(DATA_DIR / spec.file_name).read_bytes())
    return bucket


# The moment the bundled sample describes (a Sunday among its events): what "now" is for examples that ask it.
SAMPLE_NOW = "2025-10-05 12:00"


def open_dataset_sandbox(name: str, work_dir: Path, csv_path: Path | None = None, now: str | None = None) -> Any:
    """An in-process locked connection on a dataset: the worker's connection, without the worker. With `now`, the
    clock macros (and all that use them) read that JST moment instead of the real one."""
    spec = SQL_DATASETS[name]
    path = csv_path or DATA_DIR / spec.file_name

    def load(con: Any) -> None:
        load_dataset(con, spec, path)
        if now is not None:
            con.execute(f"CREATE OR REPLACE MACRO jst_now() AS TIMESTAMP '{now}'")

    return open_sandbox(TEST_LIMITS, work_dir, load)


@pytest.fixture
def sandbox(tmp_path: Path) -> Callable[..., Any]:
    return lambda name, csv_path=None: open_dataset_sandbox(name, tmp_path / "duckdb", csv_path)


def query_sandbox(con: Any, spec: DatasetSpec, sql: str, limits: QueryLimits = TEST_LIMITS) -> QueryResult:
    """`sql` through every in-process layer (text, plan, bounds) on a sandbox of `spec`, as the worker runs it."""
    return run_query(con, sql, QueryPolicy.for_connection(con, spec.table, spec.table_names), limits, spec)
