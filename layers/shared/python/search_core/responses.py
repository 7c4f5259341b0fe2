"""The Bedrock response: its shape, its UTF-8 body and the 25,000-byte budget it must stay under."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import Field

from search_core.sql.limits import TRUNCATION_MARKER

BUDGET_BYTES = 25_000
# What the SQL worker may send back: a few responses' worth, so that cutting it to one is quick and loses nothing.
REPLY_BUDGET_BYTES = 4 * BUDGET_BYTES
# The smallest a clipped value gets before whole rows are dropped instead.
_MIN_CELL_CHARS = 32
# Room for the status code and the small fields that a skeleton envelope does not yet hold.
_ENVELOPE_SLACK = 64
# At most this much of a response echoes the request's attribute maps, so the answer keeps most of the budget.
ECHO_BUDGET_BYTES = 9_000
# actionGroup, apiPath and httpMethod are short names; longer ones are echoed cut to this length.
_MAX_NAME_CHARS = 200
_NAMES = ("actionGroup", "apiPath", "httpMethod")
_ATTRIBUTES = ("sessionAttributes", "promptSessionAttributes")


def absent_when_none(description: str | None = None) -> Any:
    """A field left out of the body when it has no value: the agent pays for every byte it reads."""
    return Field(default=None, description=description, exclude_if=lambda value: value is None)


def dumps_body(body: Any) -> str:
    """The body as compact JSON with Japanese kept as UTF-8 (escaping it as \\uXXXX doubles its size)."""
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"), default=str)


def response_bytes(response: Any) -> int:
    """Size of a Lambda response (or any part of one) as the Python 3.12+ runtimes send it: json.dumps defaults,
    Unicode unescaped."""
    return len(json.dumps(response, ensure_ascii=False).encode())


def echo_of(request: Mapping[str, Any]) -> dict[str, Any]:
    """What a response echoes of `request`: its names (cut to 200 characters) and each attribute map whole if it
    still fits ECHO_BUDGET_BYTES (session attributes first), only text that UTF-8 can carry.

    >>> big = {"p": "あ" * 9000}
    >>> echo = echo_of({"apiPath": "/x", "sessionAttributes": {"k": "v"}, "promptSessionAttributes": big})
    >>> echo["apiPath"], echo["sessionAttributes"], "promptSessionAttributes" in echo
    ('/x', {'k': 'v'}, False)
    """
    echo: dict[str, Any] = {}
    for key in _NAMES:
        value = request.get(key)
        if isinstance(value, str) and encodable(value):
            echo[key] = value[:_MAX_NAME_CHARS]
    room = ECHO_BUDGET_BYTES
    for key in _ATTRIBUTES:
        value = request.get(key)
        size = utf8_size(value) if _is_text_map(value) else None
        if size is not None and size <= room:
            echo[key], room = value, room - size
    return echo


def encodable(value: Any) -> bool:
    """Whether `value` (any JSON value) can be sent as UTF-8: a lone surrogate cannot."""
    return utf8_size(value) is not None


def utf8_size(value: Any) -> int | None:
    """`response_bytes(value)`, or None when it cannot be sent at all (a lone surrogate, a value JSON cannot hold)."""
    try:
        return response_bytes(value)
    except (UnicodeEncodeError, TypeError, ValueError, RecursionError):
        return None


def _is_text_map(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items())


def envelope(request: dict[str, Any], status: int, body: str) -> dict[str, Any]:
    """A Bedrock Agent (OpenAPI) response echoing `request` (an `echo_of` the event)."""
    return {
        "messageVersion": "1.0",
        "response": {
            "actionGroup": request.get("actionGroup", ""),
            "apiPath": request.get("apiPath", ""),
            "httpMethod": request.get("httpMethod", ""),
            "httpStatusCode": status,
            "responseBody": {"application/json": {"body": body}},
        },
        "sessionAttributes": request.get("sessionAttributes") or {},
        "promptSessionAttributes": request.get("promptSessionAttributes") or {},
    }


def body_budget(request: dict[str, Any]) -> int:
    """How many bytes the serialized body may take, once embedded, in the response to the event `request`."""
    return BUDGET_BYTES - response_bytes(envelope(echo_of(request), 200, "")) - _ENVELOPE_SLACK


def embedded_bytes(body: Any) -> int:
    """Bytes the body takes inside the envelope, where it is a JSON string and so escaped once more."""
    return len(json.dumps(dumps_body(body), ensure_ascii=False).encode()) - 2


def fit_rows(
    rows: list[dict[str, Any]], make_body: Callable[[list[dict[str, Any]]], Any], budget: int
) -> tuple[list[dict[str, Any]], bool]:
    """Cut long values (with a visible marker), then trailing rows, until `make_body(rows)` fits `budget`.

    Returns the rows to send and whether anything was cut.
    """
    if embedded_bytes(make_body(rows)) <= budget:
        return rows, False
    low, high = _MIN_CELL_CHARS, max(_MIN_CELL_CHARS, _longest_text(rows))
    while low < high:  # the largest per-value length that still fits
        middle = (low + high + 1) // 2
        if embedded_bytes(make_body(_clip_rows(rows, middle))) <= budget:
            low = middle
        else:
            high = middle - 1
    clipped = _clip_rows(rows, low)
    while clipped and embedded_bytes(make_body(clipped)) > budget:
        clipped = clipped[:-1]
    return clipped, True


def _clip_rows(rows: list[dict[str, Any]], max_chars: int) -> list[dict[str, Any]]:
    return [{key: _clip(value, max_chars) for key, value in row.items()} for row in rows]


def _clip(value: Any, max_chars: int) -> Any:
    """Strings cut to `max_chars` characters and lists to `max_chars` items, each cut marked.

    >>> _clip({"a": "abcdefgh", "b": [1, 2, 3]}, 2)
    {'a': 'ab…（省略）', 'b': [1, 2, '…（省略）']}
    """
    if isinstance(value, str) and len(value) > max_chars:
        return value[:max_chars] + TRUNCATION_MARKER
    if isinstance(value, list):
        clipped = [_clip(v, max_chars) for v in value[:max_chars]]
        return [*clipped, TRUNCATION_MARKER] if len(value) > max_chars else clipped
    if isinstance(value, dict):
        return {k: _clip(v, max_chars) for k, v in value.items()}
    return value


def _longest_text(value: Any) -> int:
    """The longest string or list anywhere in `value`: the cap above which clipping changes nothing."""
    if isinstance(value, str):
        return len(value)
    if isinstance(value, list):
        return max([len(value), *(_longest_text(v) for v in value)])
    if isinstance(value, dict):
        return max((_longest_text(v) for v in value.values()), default=0)
    return 0
