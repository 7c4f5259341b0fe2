"""Turn DuckDB result values into JSON values the agent can read, clipping any that cannot fit a response."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sized
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from search_core.engine.budget import TRUNCATION_MARKER
from search_core.engine.limits import MAX_ITEMS, MAX_NESTING

# The integers every JSON reader holds exactly (IEEE doubles); beyond them a number is sent as its text.
_EXACT_INTEGER = 2**53
# A value cut for the row's share still keeps this many characters, so that it says what it was.
_MIN_KEPT_CHARS = 32


@dataclass
class Clipper:
    """Converts values to JSON types and remembers whether any had to be cut.

    Strings are cut at `max_chars` characters, lists and structs at `max_items` items, and what is nested deeper
    than MAX_NESTING is replaced by the marker. `convert_row` also gives each row a share of characters, beyond
    which its values are cut too: so converting costs about what a response could hold, whatever the shape DuckDB
    returned.
    """

    max_chars: int
    max_items: int = MAX_ITEMS
    clipped: bool = False
    _left: float = math.inf

    def convert_row(self, row: tuple[Any, ...] | list[Any], share: int) -> list[Any]:
        """Convert the values of one row within `share` characters (scalars count one each).

        >>> a, b, c = Clipper(100).convert_row(["a" * 10, "b" * 50, [1, 2]], share=40)
        >>> len(a), len(b), c
        (10, 37, ['…（省略）'])
        """
        self._left = share
        try:
            return [self.convert(value) for value in row]
        finally:
            self._left = math.inf

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
        if isinstance(value, str):
            return self._clip(value)
        if isinstance(value, dict):
            pairs = self._head(value.items(), lambda item: (str(item[0]), self.convert(item[1], depth + 1)))
            return dict(pairs)
        if isinstance(value, list | tuple | set):
            items = self._head(value, lambda item: self.convert(item, depth + 1))
            return [*items, TRUNCATION_MARKER] if len(items) < len(value) else items
        self._left -= 1
        return self._scalar(value)

    def _head(self, items: Iterable[Any], convert: Callable[[Any], Any]) -> list[Any]:
        """The first items converted, up to `max_items` and while the row's share lasts."""
        converted = []
        for item in itertools.islice(items, self.max_items):
            if self._left <= 0:
                break
            converted.append(convert(item))
        self.clipped |= len(converted) < len(items) if isinstance(items, Sized) else False
        return converted

    def _scalar(self, value: Any) -> Any:
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, int | Decimal):
            return exact_number(value)
        if isinstance(value, float):
            return value if math.isfinite(value) else str(value)
        if isinstance(value, datetime | date | time):
            return value.isoformat()
        if isinstance(value, timedelta):
            return str(value)
        if isinstance(value, bytes | bytearray | memoryview):
            return self._clip(bytes(value)[: self.max_chars].hex())
        return self._clip(str(value))

    def _clip(self, text: str) -> str:
        keep = int(min(self.max_chars, max(self._left, _MIN_KEPT_CHARS)))
        self._left -= min(len(text), keep)
        if len(text) <= keep:
            return text
        self.clipped = True
        return text[:keep] + TRUNCATION_MARKER


def exact_number(value: int | Decimal) -> int | float | str:
    """`value` as a JSON number where every JSON reader holds it exactly, else as its exact text: a DECIMAL or
    HUGEINT never loses digits on its way to the agent.

    >>> exact_number(Decimal("0.10")), exact_number(9007199254740993), exact_number(Decimal("12345678901234567.89"))
    (0.1, '9007199254740993', '12345678901234567.89')
    """
    if isinstance(value, int):
        return value if abs(value) <= _EXACT_INTEGER else str(value)
    if not value.is_finite():
        return str(value)
    as_float = float(value)  # its shortest text (what JSON carries) must read back as the same number
    return as_float if Decimal(repr(as_float)) == value else str(value)
