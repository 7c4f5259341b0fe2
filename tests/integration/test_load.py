"""A sustained run of mixed requests against warm functions: no memory growth, no leaked descriptors, processes or
temp files. Latency is reported by scripts/reliability.py, not asserted here (the machine is shared)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from tooling.local import LambdaContext, close_function, import_function
from tooling.processes import children, mixed_events, process_rss_mb

CALLS = int(os.environ.get("LOAD_CALLS", "3000"))


@pytest.fixture(scope="module")
def events_fn(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ModuleType, Path]]:
    cache = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DATA_CACHE_DIR", str(cache))
        patch.setenv("QUERY_TIMEOUT_SECONDS", "0.2")
        for name in ("EVENTS_URI", "AWS_LAMBDA_FUNCTION_NAME"):
            patch.delenv(name, raising=False)
        function = import_function("search_events", "search_events_load")
        yield function, cache
    close_function(function)


def snapshot(cache: Path) -> dict[str, Any]:
    files = sorted(str(p.relative_to(cache)) for p in cache.rglob("*") if p.is_file())
    kids = children()
    return {
        "fds": len(os.listdir("/proc/self/fd")),
        "files": files,
        "children": len(kids),
        "rss": process_rss_mb(os.getpid()),
        "worker_rss": sum(process_rss_mb(pid) for pid in kids),
    }


@pytest.mark.slow
def test_a_sustained_mixed_run_leaks_nothing(events_fn: tuple[ModuleType, Path]) -> None:
    function, cache = events_fn
    context = LambdaContext()
    for event in mixed_events(200):  # warm: data loaded, worker started, caches filled
        function.lambda_handler(event, context)
    before = snapshot(cache)
    statuses: dict[int, int] = {}
    for event in mixed_events(CALLS):
        status = function.lambda_handler(event, context)["response"]["httpStatusCode"]
        statuses[status] = statuses.get(status, 0) + 1
    after = snapshot(cache)
    assert after["fds"] == before["fds"]
    assert after["files"] == before["files"]
    assert after["children"] == before["children"] == 1
    assert after["rss"] - before["rss"] < 30, (before, after)
    assert after["worker_rss"] < 400, (before, after)
    assert set(statuses) <= {200, 400, 404, 422}
