"""Case-law questions an agent asked and got wrong before (issue 14's findings): each now right on the first call."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from tooling.local import LambdaContext, body_of, load_event, sample_functions, status_of

CASES: list[dict[str, Any]] = [
    json.loads(line) for line in (Path(__file__).parent / "cases.jsonl").open(encoding="utf-8") if line.strip()
]


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    with sample_functions(["search_cases"], "agent", tmp_path_factory.mktemp("cache")) as loaded:
        yield loaded["search_cases"]


def event_for(case: dict[str, Any]) -> dict[str, Any]:
    """A real Bedrock event of the operation, carrying the case's request."""
    if case["operation"] == "passages":
        event = load_event("search_cases/find_in_case.json")
        event["parameters"] = [{"name": k, "type": "string", "value": v} for k, v in case["request"].items()]
        return event
    event = load_event("search_cases/search_damages.json")
    properties = [{"name": k, "type": "string", "value": v} for k, v in case["request"].items()]
    event["requestBody"]["content"]["application/json"]["properties"] = properties
    return event


def test_every_finding_has_a_question() -> None:
    assert len({case["finding"] for case in CASES}) >= 6


@pytest.mark.parametrize("case", CASES, ids=[c["question"] for c in CASES])
def test_the_first_call_answers(cases: ModuleType, case: dict[str, Any]) -> None:
    response = cases.lambda_handler(event_for(case), LambdaContext())
    body = body_of(response)
    shown = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    assert status_of(response) == 200, body
    assert all(part in shown for part in case["answer"]), shown[:1500]
    assert not any(part in shown for part in case.get("absent", [])), shown[:1500]
    if "total" in case:
        assert body["total"] == case["total"] and body["total_exact"]
