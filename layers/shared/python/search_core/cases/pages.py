"""Reading a decision page by page: each page as long as the response budget allows, nothing lost or repeated."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from search_core.responses import embedded_bytes


def page_end(text: str, offset: int, make_body: Callable[[str, int | None], Any], budget: int) -> int:
    """The largest end such that `make_body(text[offset:end], next_offset)` fits `budget` bytes.

    At least one character is always returned, so paging never stalls.
    """
    if embedded_bytes(make_body(text[offset:], None)) <= budget:
        return len(text)
    low, high = offset + 1, len(text) - 1
    while low < high:
        middle = (low + high + 1) // 2
        if embedded_bytes(make_body(text[offset:middle], middle)) <= budget:
            low = middle
        else:
            high = middle - 1
    return low
