"""Questions as an agent asks them, each with the SQL a model writes first (wrong guesses included).

Each case in questions.jsonl is answered right by its first call, or that call's hints, error or message hold
what the second attempt needs (`needs`), and the second attempt (`then`) is then answered right. Answers are
checked against what the bundled sample really holds: every name in `answer` is in the rows, none in `absent`,
and `count` rows came back.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from tooling.local import LambdaContext, body_of, profile_event, sample_functions, sql_event, status_of

CASES: list[dict[str, Any]] = [
    json.loads(line) for line in (Path(__file__).parent / "questions.jsonl").open(encoding="utf-8") if line.strip()
]


@pytest.fixture(scope="module")
def functions(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, ModuleType]]:
    with sample_functions(["search_events", "search_stores"], "agent", tmp_path_factory.mktemp("cache")) as loaded:
        yield loaded


def ask(functions: dict[str, ModuleType], dataset: str, case: dict[str, Any], sql: str | None) -> dict[str, Any]:
    group = f"search_{dataset}"
    event = profile_event(group, case["profile"]) if sql is None else sql_event(group, sql)
    response: dict[str, Any] = functions[group].lambda_handler(event, LambdaContext())
    return response


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def answered(case: dict[str, Any], response: dict[str, Any]) -> bool:
    """Whether the response answers the question: everything expected is there, nothing excluded, the row count."""
    body = body_of(response)
    if status_of(response) != 200:
        return False
    shown = compact(body.get("results", body)) + "\n" + "\n".join(_texts(body.get("results", body)))
    return (
        all(part in shown for part in case["answer"])
        and not any(part in shown for part in case.get("absent", []))
        and ("count" not in case or body.get("count") == case["count"])
    )


def _texts(value: Any) -> list[str]:
    """Every string in `value`, as written (names such as バー "ミッドナイト" keep their quotes)."""
    if isinstance(value, str):
        return [value]
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    return [text for item in items for text in _texts(item)]


def guidance(response: dict[str, Any]) -> str:
    """What the agent reads besides rows: the error, or the message and hints of an empty answer."""
    body = body_of(response)
    return compact({key: body[key] for key in ("error", "message", "hints") if key in body})


def test_there_are_at_least_forty_questions_with_wrong_first_guesses_among_them() -> None:
    assert len(CASES) >= 40 and sum("then" in case for case in CASES) >= 15


@pytest.mark.parametrize("case", CASES, ids=[c["question"] for c in CASES])
def test_the_first_answer_is_right_or_guides_a_right_second(
    functions: dict[str, ModuleType], case: dict[str, Any]
) -> None:
    first = ask(functions, case["dataset"], case, case.get("first"))
    if "then" not in case:
        assert answered(case, first), compact(body_of(first))
        return
    assert not answered(case, first), "the case's first SQL should be the wrong guess it documents"
    missing = [part for part in case["needs"] if part not in guidance(first)]
    assert not missing, f"missing {missing} in {guidance(first)}"
    second = ask(functions, case["dataset"], case, case["then"])
    assert answered(case, second), compact(body_of(second))
