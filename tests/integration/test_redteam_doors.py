"""The red teams' corpora (tests/attacks/redteam_cases.jsonl and redteam_hints.jsonl) through the tool doors: a
Gateway's call into lambda_handler and the local MCP server over stdio answer each case as an agent's event is
answered (tests/integration/test_cases_redteam.py and test_redteam_hints.py), within the budget."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tooling.attacks import TARGETS, ask_through, claims_hold, matches, outcome
from tooling.doors import TOOL_DOORS, Door, door_name, reply_of

from search_core.doors.envelope import response_bytes
from search_core.engine.budget import BUDGET_BYTES
from search_core.kinds.case_law.descriptions import FIND_IN_CASE, READ_TEXT, SEARCH

ATTACKS = Path(__file__).parents[1] / "attacks"
CASES = [json.loads(line) for line in (ATTACKS / "redteam_cases.jsonl").open(encoding="utf-8")]
HINTS = [json.loads(line) for line in (ATTACKS / "redteam_hints.jsonl").open(encoding="utf-8")]
CASE_TOOLS = {"search": SEARCH, "text": READ_TEXT, "passages": FIND_IN_CASE}
ENV = {"QUERY_TIMEOUT_SECONDS": "3"}


@pytest.fixture(scope="module", params=TOOL_DOORS, ids=door_name)
def door(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Door]:
    with request.param.serving(
        [*TARGETS, "search_cases"], "redteam_doors", tmp_path_factory.mktemp("cache"), **ENV
    ) as door:
        yield door


@pytest.mark.parametrize(
    "case", CASES, ids=[f"{c['category']}: {json.dumps(c['args'], ensure_ascii=False)[:50]}" for c in CASES]
)
def test_every_case_law_case_answers_as_it_should(door: Door, case: dict[str, Any]) -> None:
    result = door.call("search_cases", CASE_TOOLS[case["op"]], case["args"])
    assert response_bytes(result) <= BUDGET_BYTES
    reply = reply_of(result)
    if case["expect"] == "ok":
        assert reply.ok, reply.body
    elif case["expect"] in ("422", "404"):
        assert not reply.ok and reply.body["error"]
    if case["op"] == "search" and reply.ok:  # more is false only when the count proves it
        assert reply.body["more"] == (reply.body["total"] > reply.body["count"] or not reply.body["total_exact"])


@pytest.mark.slow
@pytest.mark.parametrize("case", HINTS, ids=[f"{c['category']}: {c['sql'][:60]}" for c in HINTS])
def test_every_hints_case_has_its_outcome(door: Door, case: dict[str, Any]) -> None:
    result = ask_through(door, case["group"], case["sql"])
    assert response_bytes(result) <= BUDGET_BYTES
    assert matches(case["expect"], outcome(result)), (case["note"], reply_of(result).body)
    assert not claims_hold(case, reply_of(result).body), claims_hold(case, reply_of(result).body)
