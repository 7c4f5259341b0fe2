"""The byte budget every answer is cut to, every share of it, and the cutting: long values first (marked), then
trailing rows.

Changing the budget is one edit, BUDGET_BYTES: its shares follow from it, and tests/unit/test_docs.py fails until the
figures the docs give for them say the same.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

BUDGET_BYTES = 25_000
# What the SQL worker may send back: a few responses' worth, so that cutting it to one is quick and loses nothing.
REPLY_BUDGET_BYTES = 4 * BUDGET_BYTES
# What a response may spend echoing the request's attribute maps (session and prompt attributes): 36%, so the answer
# keeps nearly two thirds of the budget whatever a session carries.
ECHO_BUDGET_BYTES = BUDGET_BYTES * 36 // 100
# The most characters of one value the worker ships: a character takes at least a byte, so no longer value could fit.
MAX_CELL_CHARS = BUDGET_BYTES
# Ends a value (text or list) cut to fit, so the agent reads that it goes on.
TRUNCATION_MARKER = "…（省略）"
# The smallest a clipped value gets before whole rows are dropped instead.
_MIN_CELL_CHARS = 32


def dumps_body(body: Any) -> str:
    """The body as compact JSON with Japanese kept as UTF-8 (escaping it as \\uXXXX doubles its size)."""
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"), default=str)


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
    fitting = largest(
        _MIN_CELL_CHARS,
        max(_MIN_CELL_CHARS, _longest_text(rows)),
        lambda length: embedded_bytes(make_body(_clip_rows(rows, length))) <= budget,
    )
    clipped = _clip_rows(rows, fitting)
    kept = largest(0, len(clipped), lambda count: embedded_bytes(make_body(clipped[:count])) <= budget)
    return clipped[:kept], True


def largest(low: int, high: int, fits: Callable[[int], bool]) -> int:
    """The largest n from `low` to `high` for which `fits(n)`, where fitting is lost as n grows; `low` when none does
    (the caller knows whether `low` fits): the longest value, page or 主文 that leaves an answer within its budget.

    >>> largest(0, 100, lambda n: n * n <= 50)
    7
    """
    while low < high:
        middle = (low + high + 1) // 2
        if fits(middle):
            low = middle
        else:
            high = middle - 1
    return low


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
