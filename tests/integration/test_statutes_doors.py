"""The statute cases (tests/attacks/redteam_statutes.jsonl: odd writings of laws and articles, dates, searches,
tables of contents, red-team findings) through every door: each answers as it should, within the budget, and an
article answered is the one asked for."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tooling.doors import DOORS, Door, door_name, reply_of

from search_core.doors.envelope import response_bytes
from search_core.engine.budget import BUDGET_BYTES

CASES = [
    json.loads(line)
    for line in (Path(__file__).parents[1] / "attacks" / "redteam_statutes.jsonl").open(encoding="utf-8")
]


@pytest.fixture(scope="module", params=DOORS, ids=door_name)
def door(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Door]:
    with request.param.serving(["search_statutes"], "statute_doors", tmp_path_factory.mktemp("cache")) as door:
        yield door


@pytest.mark.parametrize(
    "case", CASES, ids=[f"{c['category']}: {json.dumps(c['args'], ensure_ascii=False)[:50]}" for c in CASES]
)
def test_every_statute_case_answers_as_it_should(door: Door, case: dict[str, Any]) -> None:
    result = door.call("search_statutes", case["op"], case["args"])
    assert response_bytes(result) <= BUDGET_BYTES
    reply = reply_of(result)
    if case["expect"] == "ok":
        assert reply.ok, reply.body
    else:
        assert not reply.ok and reply.body["error"], reply.body
    if reply.ok and "article" in case:
        assert reply.body["article"] == case["article"]
    if reply.ok and case["op"] == "searchStatutes":
        assert reply.body["more"] == (reply.body["total"] > len(reply.body["hits"]) or not reply.body["total_exact"])
