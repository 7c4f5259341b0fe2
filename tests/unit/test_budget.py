"""The byte budget: long values are cut with a visible marker, rows only when values alone cannot make it fit."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from search_core.doors.envelope import body_budget, echo_of, envelope, response_bytes
from search_core.engine.budget import (
    BUDGET_BYTES,
    ECHO_BUDGET_BYTES,
    TRUNCATION_MARKER,
    dumps_body,
    embedded_bytes,
    fit_rows,
)

EXAMPLES = int(os.environ.get("HYPOTHESIS_EXAMPLES", "300"))
REQUEST = {"actionGroup": "g", "apiPath": "/events/search", "httpMethod": "POST", "sessionAttributes": {"a": "b"}}


def make_body(rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {"results": rows, "count": len(rows), "truncated": True}


def full_response_size(rows: list[dict[str, Any]]) -> int:
    return response_bytes(envelope(REQUEST, 200, dumps_body(make_body(rows))))


def test_japanese_stays_utf8_in_the_body() -> None:
    body = dumps_body({"event_name": "秋のマルシェ"})
    assert "秋のマルシェ" in body
    assert "\\u" not in body


def test_embedded_size_counts_the_second_escaping() -> None:
    body = {"text": 'quote " and\nnewline and 日本語'}
    standalone = len(dumps_body(body).encode())
    assert embedded_bytes(body) > standalone
    assert embedded_bytes(body) == len(json.dumps(dumps_body(body), ensure_ascii=False).encode()) - 2


def test_small_results_are_untouched() -> None:
    rows = [{"event_name": "朝ヨガ"}]
    assert fit_rows(rows, make_body, body_budget(echo_of(REQUEST))) == (rows, False)


def test_long_values_are_cut_with_a_marker_and_all_rows_kept() -> None:
    rows = [{"name": f"店{i}", "description": "説明" * 5000} for i in range(10)]
    fitted, cut = fit_rows(rows, make_body, body_budget(echo_of(REQUEST)))
    assert cut
    assert [r["name"] for r in fitted] == [r["name"] for r in rows]
    assert all(r["description"].endswith(TRUNCATION_MARKER) for r in fitted)
    assert full_response_size(fitted) <= BUDGET_BYTES


def test_short_values_are_not_cut_when_only_one_is_long() -> None:
    rows = [{"short": "ちいさい", "long": "長" * 40_000}]
    fitted, cut = fit_rows(rows, make_body, body_budget(echo_of(REQUEST)))
    assert cut
    assert fitted[0]["short"] == "ちいさい"
    assert fitted[0]["long"].endswith(TRUNCATION_MARKER)


def test_rows_are_dropped_only_when_clipping_is_not_enough() -> None:
    rows = [{f"c{j}": "値" * 100 for j in range(100)} for _ in range(10)]
    fitted, cut = fit_rows(rows, make_body, body_budget(echo_of(REQUEST)))
    assert cut
    assert 0 < len(fitted) < len(rows)
    assert full_response_size(fitted) <= BUDGET_BYTES


def test_nested_values_are_clipped_too() -> None:
    rows = [{"list": ["x" * 30_000], "struct": {"k": "y" * 30_000}}]
    fitted, _ = fit_rows(rows, make_body, body_budget(echo_of(REQUEST)))
    assert full_response_size(fitted) <= BUDGET_BYTES
    assert fitted[0]["list"][0].endswith(TRUNCATION_MARKER)


def test_large_session_attributes_shrink_the_budget() -> None:
    heavy = {**REQUEST, "sessionAttributes": {"history": "履歴" * 1200}}
    assert body_budget(echo_of(heavy)) < body_budget(echo_of(REQUEST)) - 7_000


@pytest.mark.parametrize("field", ["sessionAttributes", "promptSessionAttributes"])
def test_attributes_over_the_echo_budget_are_not_echoed_and_leave_the_budget(field: str) -> None:
    oversized = {**REQUEST, field: {"history": "あ" * ECHO_BUDGET_BYTES}}
    assert field not in echo_of(oversized)
    assert body_budget(echo_of(oversized)) >= BUDGET_BYTES - ECHO_BUDGET_BYTES


def test_envelope_echoes_session_attributes() -> None:
    response = envelope({**REQUEST, "promptSessionAttributes": {"p": "q"}}, 200, "{}")
    assert response["sessionAttributes"] == {"a": "b"}
    assert response["promptSessionAttributes"] == {"p": "q"}
    assert response["response"]["responseBody"]["application/json"]["body"] == "{}"


json_rows = st.lists(
    st.dictionaries(st.text(max_size=8), st.one_of(st.none(), st.integers(), st.text(max_size=40)), max_size=4),
    max_size=5,
)


@settings(max_examples=EXAMPLES, deadline=None)
@given(rows=json_rows, message=st.text(max_size=30))
def test_a_bodys_size_is_its_parts_sizes(rows: list[dict[str, Any]], message: str) -> None:
    """What lets the worker fit rows once: the room the rest of a body leaves is exactly what the rows may take,
    quotes, backslashes and control characters escaped twice included."""
    body = {"results": rows, "count": 10, "truncated": True, "message": message}
    rest = {**body, "results": []}
    assert embedded_bytes(body) == embedded_bytes(rest) - embedded_bytes([]) + embedded_bytes(rows)
