"""Turn DuckDB result values into JSON values the agent can read, clipping any that cannot fit a response."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from search_core.sql.limits import TRUNCATION_MARKER


@dataclass
class Clipper:
    """Converts values to JSON types and remembers whether any string had to be cut."""

    max_chars: int
    clipped: bool = False

    def convert(self, value: Any) -> Any:
        """Convert one value, recursing into lists and structs.

        >>> Clipper(5).convert({"a": [Decimal("1.5"), date(2025, 10, 1), "abcdefgh"]})
        {'a': [1.5, '2025-10-01', 'abcde…（省略）']}
        """
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
            return {str(k): self.convert(v) for k, v in value.items()}
        if isinstance(value, list | tuple | set):
            return [self.convert(v) for v in value]
        return self._clip(str(value))

    def _clip(self, text: str) -> str:
        if len(text) <= self.max_chars:
            return text
        self.clipped = True
        return text[: self.max_chars] + TRUNCATION_MARKER
