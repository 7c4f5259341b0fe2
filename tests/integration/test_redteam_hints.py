"""The red team's cases against answers without rows, the profile and the rewritten errors (redteam_hints.jsonl).

Each case names its function and the outcome it must have. Beyond that: no answer takes the worker down (a hint or
an error rewrite that outruns the deadline would), every error stays short, every hint's `matched` and
`matching_rows` are what DuckDB counts for its condition alone, and the case's own claims (`matched`, `message_has`)
hold.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from tooling.attacks import ask, claims_hold, matches, outcome
from tooling.local import body_of, sample_functions, status_of

from search_core.advice.explain import MAX_MESSAGE_CHARS
from search_core.doors.envelope import response_bytes
from search_core.engine.budget import BUDGET_BYTES

CASES = [json.loads(line) for line in (Path(__file__).parents[1] / "attacks" / "redteam_hints.jsonl").open()]


@pytest.fixture(scope="module")
def functions(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, ModuleType]]:
    names = sorted({case["group"] for case in CASES})
    with sample_functions(names, "redteam", tmp_path_factory.mktemp("cache"), QUERY_TIMEOUT_SECONDS="3") as loaded:
        yield loaded


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[f"{c['category']}: {c['sql'][:60]}" for c in CASES])
def test_the_red_team_case(functions: dict[str, ModuleType], case: dict[str, Any]) -> None:
    function, name = functions[case["group"]], case["group"]
    response = ask(function, name, case["sql"])
    body = body_of(response)
    assert response_bytes(response) <= BUDGET_BYTES
    assert matches(case["expect"], outcome(response)), (case["note"], body)
    if status_of(response) != 200:
        assert len(body["error"]) <= MAX_MESSAGE_CHARS and "Candidate" not in body["error"], body["error"]
        assert "内部エラー" not in body["error"]
        return
    assert not claims_hold(case, body), claims_hold(case, body)
    table = "events" if name == "search_events" else "stores"
    for hint in body.get("hints", []):  # what a hint says of its condition is what DuckDB counts
        if "matched" in hint:
            alias = re.match(r"(\w+)\.", hint["condition"])  # the condition as written, with its table's alias
            source = f"{table} AS {alias.group(1)}" if alias else table
            check = body_of(ask(function, name, f"SELECT count(*) AS n FROM {source} WHERE {hint['condition']}"))
            assert check.get("results") == [{"n": hint["matching_rows"]}], (hint, check)
            assert hint["matched"] == (hint["matching_rows"] > 0)
