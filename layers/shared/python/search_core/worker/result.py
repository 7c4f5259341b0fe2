"""What a bounded query returns, shared by the worker and the parent (which never imports DuckDB itself)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from search_core.advice.hints import EmptyAnswer


@dataclass(frozen=True)
class QueryResult:
    """The one result of a query: made by `run_query` in the worker, sent as it is (`Rows`), and shaped into the
    answer by the parent. An answer without rows carries why (`why_empty`), which the worker sends after it."""

    columns: list[str]
    rows: list[list[Any]]
    truncated: bool = False
    why_empty: EmptyAnswer = field(default_factory=EmptyAnswer)

    def to_dict(self) -> dict[str, Any]:
        """What crosses the process boundary with the rows; `why_empty` follows on its own."""
        return {"columns": self.columns, "rows": self.rows, "truncated": self.truncated}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> QueryResult:
        return cls(data["columns"], data["rows"], bool(data["truncated"]))
