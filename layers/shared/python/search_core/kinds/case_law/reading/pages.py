"""Fitting a decision's text to the response budget: a page as long as the budget allows, nothing lost or repeated;
a hit's 主文 as long as the other hits leave room for."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from search_core.engine.budget import embedded_bytes, largest


def page_end(text: str, offset: int, make_body: Callable[[str, int | None], Any], budget: int) -> int:
    """The largest end such that `make_body(text[offset:end], next_offset)` fits `budget` bytes.

    At least one character is always returned, so paging never stalls.
    """
    if embedded_bytes(make_body(text[offset:], None)) <= budget:
        return len(text)
    return largest(offset + 1, len(text) - 1, lambda end: embedded_bytes(make_body(text[offset:end], end)) <= budget)
