"""What a bounded query returns, shared by the worker and the parent (which never imports DuckDB itself)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from search_core.advice.hints import ClockNote, ValueHint


@dataclass
class QueryResult:
    columns: list[str]
    rows: list[list[Any]]
    truncated: bool = False
    hints: list[ValueHint] = field(default_factory=list)
    clock: ClockNote | None = None
    where_rows: int | None = None
