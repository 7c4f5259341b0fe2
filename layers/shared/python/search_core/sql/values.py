"""Turn DuckDB result values into JSON values the agent can read, clipping any that cannot fit a response."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from search_core.sql.limits import MAX_ITEMS, MAX_NESTING, TRUNCATION_MARKER


@dataclass
class Clipper:
    """Converts values to JSON types and remembers whether any had to be cut.

    Strings are cut at `max_chars` characters, lists and structs at `max_items` items, and what is nested deeper
    than MAX_NESTING is replaced by the marker. So converting costs about what a response could hold, whatever the
    shape DuckDB returned.
    """

    max_chars: int
    max_items: int = MAX_ITEMS
    clipped: bool = False

    def convert(self, value: Any, depth: int = 0) -> Any:
        """Convert one value, recursing into lists and structs.

        >>> Clipper(5).convert({"a": [Decimal("1.5"), date(2025, 10, 1), "abcdefgh"]})
        {'a': [1.5, '2025-10-01', 'abcde…（省略）']}
        >>> Clipper(5, max_items=3).convert(list(range(10)))
        [0, 1, 2, '…（省略）']
        """
        if depth > MAX_NESTING:
            self.clipped = True
            return TRUNCATION_MARKER
        if value is None or isinstance(value, bool | int):
            return value
        if isinstance(value, float):
            return value if math.isfinite(value) else str(value)
        if isinstance(value, str):
            return self._clip(value)
        if isinstance(value, Decimal):
            return float(value) if value.is_finite() else str(value)
        if isinstance(value, datetime | date | time):
            return value.isoformat()
        if isinstance(value, timedelta):
            return str(value)
        if isinstance(value, bytes | bytearray | memoryview):
            return self._clip(bytes(value).hex())
        if isinstance(value, dict):
            items = list(itertools.islice(value.items(), self.max_items + 1))
            converted = {str(k): self.convert(v, depth + 1) for k, v in items[: self.max_items]}
            if len(items) > self.max_items:
                self.clipped = True
            return converted
        if isinstance(value, list | tuple | set):
            head = list(itertools.islice(value, self.max_items + 1))
            converted_list = [self.convert(v, depth + 1) for v in head[: self.max_items]]
            if len(head) > self.max_items:
                self.clipped = True
                converted_list.append(TRUNCATION_MARKER)
            return converted_list
        return self._clip(str(value))

    def _clip(self, text: str) -> str:
        if len(text) <= self.max_chars:
            return text
        self.clipped = True
        return text[: self.max_chars] + TRUNCATION_MARKER
