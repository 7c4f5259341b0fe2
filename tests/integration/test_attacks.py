"""The attack corpus (tests/attacks/sql.jsonl) against both SQL functions, with canaries that must never leak.

Each line is one case: `sql` (with {table}, {file}, {column} and {canary_file} filled in per function), its
`category` and the `expect`ed outcome: rejected (the guard refuses), failed (DuckDB refuses), aborted (stopped for
time or memory), ok (answered), error (refused either way) or any (any well-formed answer).
"""

from __future__ import annotations

import contextlib
import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from tooling.attacks import CORPUS, TARGETS, ask, matches, outcome, plant_canaries, sql_of
from tooling.local import LambdaContext, profile_event, status_of

from search_core.responses import BUDGET_BYTES, response_bytes
from tests.conftest import body_of, published_samples, sample_functions

SECRET = f"canary-secret-{secrets.token_hex(8)}"
REPOSITORY = Path(__file__).resolve().parents[2]
FILE_SECRET = f"canary-file-{secrets.token_hex(8)}"


@pytest.fixture(scope="module")
def canary_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("canary") / "canary.csv"
    path.write_text(f"secret\n{FILE_SECRET}\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module", params=["sample CSV", "published"])
def served(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[dict[str, ModuleType], Path, bool]]:
    """Each SQL function and its cache folder: on the sample CSV held in memory, or on data published as
    `make upload-data` publishes it, served from the prepared DuckDB file the worker opens."""
    cache_dir = tmp_path_factory.mktemp("cache")
    with contextlib.ExitStack() as stack:
        data = stack.enter_context(published_samples()) if request.param == "published" else {}
        loaded = stack.enter_context(
            sample_functions(
                TARGETS,
                f"attacks_{len(data)}",
                cache_dir,
                QUERY_TIMEOUT_SECONDS="1",
                AWS_LAMBDA_FUNCTION_MEMORY_SIZE="1024",
                AWS_SECRET_ACCESS_KEY=SECRET,
                CANARY_SECRET=SECRET,
                **data,
            )
        )
        yield loaded, cache_dir, bool(data)


def got_hints(response: dict[str, Any]) -> bool:
    return status_of(response) == 200 and "hints" in body_of(response)


@pytest.mark.slow
@pytest.mark.parametrize("name", TARGETS)
def test_the_corpus(served: tuple[dict[str, ModuleType], Path, bool], canary_file: Path, name: str) -> None:
    (functions, cache_dir, published), names = served, TARGETS[name]
    function = functions[name]
    before = ask(function, name, f"SELECT count(*) AS n, sum(hash(COLUMNS(*))) AS h FROM {names['table']}")
    places = plant_canaries(canary_file, cache_dir, names["table"], FILE_SECRET)
    surprises, hinted = [], 0
    for case in CORPUS:
        response = ask(function, name, sql_of(case, name, places))
        raw = json.dumps(response, ensure_ascii=False)
        assert SECRET not in raw and FILE_SECRET not in raw, f"canary leaked by {case}"
        assert not any(str(p) in raw for p in (cache_dir, places["temp_dir"], REPOSITORY)), f"path leaked by {case}"
        assert response_bytes(response) <= BUDGET_BYTES
        hinted += got_hints(response)
        got = outcome(response)
        if not matches(case["expect"], got):
            surprises.append((case["category"], case["sql"][:120], case["expect"], got, raw[:300]))
        if got == "aborted":
            # Serving again. On a loaded machine the first call after an abort has been seen to meet the 1 s deadline
            # itself (twice in about ten runs, never when idle), so one retry is allowed.
            count = f"SELECT count(*) FROM {names['table']}"
            recovered = [outcome(ask(function, name, count)) for _ in range(2)]
            assert "ok" in recovered, f"not serving again after {case}: {recovered}"
    assert surprises == [], "\n".join(map(str, surprises))
    assert hinted > 0  # answers without rows carried hints through the same net
    for column in (None, names["column"], str(places["temp_canary"]), "../" * 60 + "etc/passwd", "列" * 5000):
        response = function.lambda_handler(profile_event(name, column), LambdaContext())
        raw = json.dumps(response, ensure_ascii=False)
        assert SECRET not in raw and FILE_SECRET not in raw and str(cache_dir) not in raw
        assert status_of(response) in (200, 422) and response_bytes(response) <= BUDGET_BYTES
    after = ask(function, name, f"SELECT count(*) AS n, sum(hash(COLUMNS(*))) AS h FROM {names['table']}")
    assert body_of(after) == body_of(before), "data was changed"
    assert any(cache_dir.glob(f"{names['table']}-*.duckdb")) == published  # the prepared file was what served
    for written in ("/tmp/stolen.csv", "/tmp/stolen.parquet", "/tmp/export", "/tmp/x.duckdb"):
        assert not Path(written).exists()


def test_the_corpus_is_large_and_covers_every_category() -> None:
    categories = {case["category"] for case in CORPUS}
    assert len(CORPUS) >= 450
    assert {"statement-type", "stacking", "reader", "reader-nested", "replacement-scan", "catalog-setting", "unicode",
            "legitimate", "long", "nested", "runaway", "cte-shadow", "temp-read", "encoded-leak", "dml-cte",
            "catalog-macro", "shaping", "text-escape"} <= categories  # fmt: skip
