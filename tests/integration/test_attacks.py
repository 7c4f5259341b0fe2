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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from tooling.attacks import CORPUS, TARGETS, ask_through, look_through, matches, outcome, plant_canaries, sql_of
from tooling.doors import DOORS, Door, reply_of

from search_core.doors.envelope import response_bytes
from search_core.engine.budget import BUDGET_BYTES
from tests.conftest import published_samples

SECRET = f"canary-secret-{secrets.token_hex(8)}"
REPOSITORY = Path(__file__).resolve().parents[2]
FILE_SECRET = f"canary-file-{secrets.token_hex(8)}"


@pytest.fixture(scope="module")
def canary_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("canary") / "canary.csv"
    path.write_text(f"secret\n{FILE_SECRET}\n", encoding="utf-8")
    return path


# The corpus through every door on the sample CSV, and on published data through each door whose functions run in
# this process, where the published data's S3 (moto's, in process) reaches them: not the local MCP server's own.
SETUPS = [
    (door, data) for door in DOORS for data in ("sample CSV", "published") if door.in_process or data == "sample CSV"
]
LIMITS = {"QUERY_TIMEOUT_SECONDS": "1", "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": "1024"}
CANARIES = {"AWS_SECRET_ACCESS_KEY": SECRET, "CANARY_SECRET": SECRET}


@dataclass
class Served:
    door: Door
    cache_dir: Path
    published: bool


@pytest.fixture(scope="module", params=SETUPS, ids=lambda setup: f"{setup[0].name} on {setup[1]}")
def served(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The SQL functions behind one door, with canaries in their environment: on the sample CSV held in memory,
    or on data published as `make upload-data` publishes it, served from the prepared DuckDB file the worker
    opens."""
    door_class, data_name = request.param
    cache_dir = tmp_path_factory.mktemp("cache")
    with contextlib.ExitStack() as stack:
        data = stack.enter_context(published_samples()) if data_name == "published" else {}
        door = stack.enter_context(
            door_class.serving(TARGETS, f"attacks_{len(data)}", cache_dir, **LIMITS, **CANARIES, **data)
        )
        yield Served(door, cache_dir, bool(data))


def got_hints(response: dict[str, Any]) -> bool:
    reply = reply_of(response)
    return reply.ok and "hints" in reply.body


@pytest.mark.slow
@pytest.mark.parametrize("name", TARGETS)
def test_the_corpus(served: Served, canary_file: Path, name: str) -> None:
    door, cache_dir, names = served.door, served.cache_dir, TARGETS[name]
    checksum = f"SELECT count(*) AS n, sum(hash(COLUMNS(*))) AS h FROM {names['table']}"
    before = reply_of(ask_through(door, name, checksum)).body
    places = plant_canaries(canary_file, cache_dir, names["table"], FILE_SECRET)
    surprises, hinted = [], 0
    for case in CORPUS:
        response = ask_through(door, name, sql_of(case, name, places))
        raw = json.dumps(response, ensure_ascii=False)
        assert SECRET not in raw and FILE_SECRET not in raw, f"canary leaked by {case}"
        assert not any(str(p) in raw for p in (cache_dir, places["temp_dir"], REPOSITORY)), f"path leaked by {case}"
        assert response_bytes(response) <= BUDGET_BYTES
        hinted += got_hints(response)
        got = outcome(response)
        if not matches(case["expect"], got):
            surprises.append((case["category"], case["sql"][:120], case["expect"], got, raw[:300]))
        elif got == "ok" and "rows" in case and reply_of(response).body["count"] != case["rows"]:
            surprises.append((case["category"], case["sql"][:120], f"{case['rows']} rows", got, raw[:300]))
        if got == "aborted":
            # Serving again. On a loaded machine the first call after an abort has been seen to meet the 1 s deadline
            # itself (twice in about ten runs, never when idle), so one retry is allowed.
            count = f"SELECT count(*) FROM {names['table']}"
            recovered = [outcome(ask_through(door, name, count)) for _ in range(2)]
            assert "ok" in recovered, f"not serving again after {case}: {recovered}"
    assert surprises == [], "\n".join(map(str, surprises))
    assert hinted > 0  # answers without rows carried hints through the same net
    for column in (None, names["column"], str(places["temp_canary"]), "../" * 60 + "etc/passwd", "列" * 5000):
        response = look_through(door, name, column)
        raw = json.dumps(response, ensure_ascii=False)
        assert SECRET not in raw and FILE_SECRET not in raw and str(cache_dir) not in raw
        assert (reply_of(response).ok or "error" in reply_of(response).body) and response_bytes(
            response
        ) <= BUDGET_BYTES
    assert reply_of(ask_through(door, name, checksum)).body == before, "data was changed"
    assert any(cache_dir.glob(f"{names['table']}-*.duckdb")) == served.published  # the prepared file was what served
    for written in ("/tmp/stolen.csv", "/tmp/stolen.parquet", "/tmp/export", "/tmp/x.duckdb"):
        assert not Path(written).exists()


def test_the_corpus_is_large_and_covers_every_category() -> None:
    categories = {case["category"] for case in CORPUS}
    assert len(CORPUS) >= 450
    assert {"statement-type", "stacking", "reader", "reader-nested", "replacement-scan", "catalog-setting", "unicode",
            "legitimate", "long", "nested", "runaway", "cte-shadow", "temp-read", "encoded-leak", "dml-cte",
            "catalog-macro", "shaping", "text-escape", "plan-time"} <= categories  # fmt: skip
