"""Hostile envelopes found by the red team (and their neighbours): every one gets a bounded, well-formed answer that
is never a 500, through the real `lambda_handler` of each function."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pytest
from tooling.local import LambdaContext, body_of, load_event, sample_functions, status_of

from search_core.doors.envelope import response_bytes
from search_core.engine.budget import BUDGET_BYTES

BASE_EVENTS = {
    "search_events": "search_events/free_events.json",
    "search_stores": "search_stores/opening_hours.json",
    "search_cases": "search_cases/search_damages.json",
    "read_text": "search_cases/read_text.json",
}
Mutation = Callable[[dict[str, Any]], None]
LONG_KANA = "あ" * 6000
DIGITS = "9" * 5000  # Python refuses to turn more than 4,300 digits into an int


def _properties(event: dict[str, Any]) -> list[dict[str, Any]]:
    if "requestBody" in event:
        properties: list[dict[str, Any]] = event["requestBody"]["content"]["application/json"]["properties"]
        return properties
    parameters: list[dict[str, Any]] = event["parameters"]
    return parameters


MUTATIONS: dict[str, Mutation] = {
    "session attribute key of 30,000 characters": lambda e: e.update(sessionAttributes={"A" * 30_000: 1}),
    "five long session attribute keys": lambda e: e.update(sessionAttributes={f"K{i}{LONG_KANA}": 1 for i in range(5)}),
    "prompt attribute key of 9,000 kana": lambda e: e.update(promptSessionAttributes={"あ" * 9000: [1]}),
    "media type of 26,000 characters": lambda e: e.update(requestBody={"content": {"x/" + "y" * 26_000: 5}}),
    "a parameter without a value": lambda e: e.update(parameters=[{"name": "x"}]),
    "a property without a value": lambda e: _properties(e).__setitem__(0, {"name": _properties(e)[0]["name"]}),
    "session attributes of 30,000 characters": lambda e: e.update(sessionAttributes={"k": "x" * 30_000}),
    "prompt attributes of 9,000 kana": lambda e: e.update(promptSessionAttributes={"k": "あ" * 9000}),
    "apiPath of 30,000 characters": lambda e: e.update(apiPath="/" + "x" * 30_000),
    "lone surrogate in sessionAttributes": lambda e: e.update(sessionAttributes={"k": "\udcff"}),
    "lone surrogate in httpMethod": lambda e: e.update(httpMethod="POST\udcff"),
    "lone surrogate in a value": lambda e: _properties(e)[0].update(value="x\udcff"),
    "a value of 5,000 digits": lambda e: _properties(e).append({"name": "limit", "type": "integer", "value": DIGITS}),
    "a value of 30,000 characters": lambda e: _properties(e)[0].update(value="'" * 30_000),
}  # fmt: skip


@pytest.fixture(scope="module")
def functions(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, ModuleType]]:
    with sample_functions(
        ["search_events", "search_stores", "search_cases"], "envelope", tmp_path_factory.mktemp("c")
    ) as f:
        yield f


@pytest.mark.parametrize("target", BASE_EVENTS)
@pytest.mark.parametrize("mutation", MUTATIONS)
def test_hostile_envelopes_get_a_bounded_answer_that_is_never_a_500(
    functions: dict[str, ModuleType], target: str, mutation: str
) -> None:
    event = copy.deepcopy(load_event(BASE_EVENTS[target]))
    MUTATIONS[mutation](event)
    response = functions["search_cases" if target == "read_text" else target].lambda_handler(event, LambdaContext())
    assert status_of(response) in (200, 400, 404, 422)
    assert response_bytes(response) <= BUDGET_BYTES
    assert status_of(response) == 200 or body_of(response)["error"]


def test_oversized_attributes_are_left_out_of_the_echo_not_the_answer(functions: dict[str, ModuleType]) -> None:
    event = load_event(BASE_EVENTS["search_events"])
    event["promptSessionAttributes"] = {"history": "あ" * 9000}
    response = functions["search_events"].lambda_handler(event, LambdaContext())
    assert status_of(response) == 200 and body_of(response)["count"] > 0
    assert response["promptSessionAttributes"] == {}
    assert response["sessionAttributes"] == event["sessionAttributes"]
