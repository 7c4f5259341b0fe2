"""SnapStart's runtime hooks around a simulated restore: registered only when Lambda initialises for a snapshot, the
function warmed before it, and after it a new S3 client, the data's ETag checked again, the worker revived and the
randomness reseeded. The hooks run as the runtime client runs them (awslambdaric's hooks runner: before-snapshot
hooks popped last first, after-restore hooks in order); the artefact tier runs them in the runtime client itself."""

from __future__ import annotations

import csv
import io
import os
import random
import signal
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pytest
import snapshot_restore_py as runtime_hooks
from tooling.local import DATA_DIR, LambdaContext, body_of, sql_event

from search_core.storage import s3 as s3_storage

KEY = "data/events.csv"


@pytest.fixture
def hooks() -> Iterator[tuple[list[Any], list[Any]]]:
    """The runtime's registries of hooks, empty before the test and after it."""
    before, after = runtime_hooks.get_before_snapshot(), runtime_hooks.get_after_restore()
    before.clear()
    after.clear()
    yield before, after
    before.clear()
    after.clear()


def run_before_snapshot(before: list[Any]) -> None:
    while before:
        function, args, kwargs = before.pop()
        function(*args, **kwargs)


def run_after_restore(after: list[Any]) -> None:
    for function, args, kwargs in after:
        function(*args, **kwargs)


def first_rows(count: int) -> bytes:
    """The sample events.csv with only its first `count` rows."""
    with (DATA_DIR / "events.csv").open(encoding="utf-8", newline="") as sample:
        rows = list(csv.reader(sample))
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows[: count + 1])
    return out.getvalue().encode()


def count_events(function: ModuleType) -> int:
    response = function.lambda_handler(sql_event("search_events", "SELECT count(*) AS n FROM events"), LambdaContext())
    return int(body_of(response)["results"][0]["n"])


def test_no_hook_is_registered_outside_a_snapshot_initialisation(
    hooks: tuple[list[Any], list[Any]], load_function: Callable[..., ModuleType], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("AWS_LAMBDA_INITIALIZATION_TYPE", raising=False)
    load_function("search_events")
    assert hooks == ([], [])


def test_a_restored_function_is_as_good_as_a_fresh_one(
    hooks: tuple[list[Any], list[Any]],
    load_function: Callable[..., ModuleType],
    aws: Any,
    data_bucket: str,
) -> None:
    function = load_function(
        "search_events",
        AWS_LAMBDA_INITIALIZATION_TYPE="snap-start",
        EVENTS_URI=f"s3://{data_bucket}/{KEY}",
        DATA_REFRESH_SECONDS="3600",
    )
    before, after = hooks
    assert (len(before), len(after)) == (1, 1)
    service = function.function.service

    run_before_snapshot(before)
    snapshot_worker = service._data.served().pid
    assert snapshot_worker is not None  # the data and its worker are in the snapshot
    snapshot_client, snapshot_randomness = s3_storage._client(), random.getstate()

    # What a restore can find: the worker gone, the data replaced meanwhile, the process's state as it was.
    os.kill(snapshot_worker, signal.SIGKILL)
    os.waitpid(snapshot_worker, 0)
    aws.put_object(Bucket=data_bucket, Key=KEY, Body=first_rows(3))
    random.setstate(snapshot_randomness)

    run_after_restore(after)
    assert s3_storage._client() is not snapshot_client
    assert random.getstate() != snapshot_randomness
    revived = service._data.served().pid
    assert revived is not None and revived != snapshot_worker
    assert count_events(function) == 3  # checked again at once, though the refresh interval is an hour


@pytest.mark.parametrize("name", ["search_cases", "search_statutes"])
def test_the_full_text_functions_are_warmed_with_their_database_open(
    hooks: tuple[list[Any], list[Any]], load_function: Callable[..., ModuleType], name: str
) -> None:
    function = load_function(name, AWS_LAMBDA_INITIALIZATION_TYPE="snap-start")
    before, after = hooks
    assert function.function.service._data.served() is None
    run_before_snapshot(before)
    opened = function.function.service._data.served()
    assert opened is not None
    run_after_restore(after)
    assert function.function.service._data.served() is opened  # the sample is a local file, unchanged
