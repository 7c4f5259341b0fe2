"""DuckDB's own parse of a statement: the JSON tree `json_serialize_sql` gives, read by the guard and the hints.

`json_serialize_sql` serialises a statement only when DuckDB's parser made it one SELECT tree; any other form (a
PIVOT without an IN list, which the parser turns into several statements) comes back as "not implemented".

>>> import duckdb
>>> con = duckdb.connect()
>>> parse(con, "SELECT 1 AS x").kind, parse(con, "PIVOT t ON s").kind, parse(con, "SELEC 1").kind
('select', 'not one select', 'syntax error')
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    import duckdb

JsonNode = dict[str, Any]
ParseKind = Literal["select", "not one select", "syntax error", "too deep"]


@dataclass(frozen=True)
class Parse:
    """What DuckDB's parser made of a text: one SELECT tree (`statements`), or why not."""

    kind: ParseKind
    statements: list[JsonNode] = field(default_factory=list)
    # The serialised tree as DuckDB wrote it, kept for a tree too deep to read as objects.
    text: str = ""


def parse(con: duckdb.DuckDBPyConnection, sql: str) -> Parse:
    """DuckDB's parse of `sql` (parsing runs nothing: it reads no table and calls no function)."""
    row = con.execute("SELECT json_serialize_sql(?)", [sql]).fetchone()
    text = str(row[0]) if row else "{}"
    try:
        parsed = json.loads(text)
    except RecursionError:  # nested deeper than this Python reads JSON (only a SELECT serialises at all)
        return Parse("too deep", text=text)
    if not parsed.get("error"):
        return Parse("select", list(parsed.get("statements") or []))
    if parsed.get("error_type") == "not implemented":
        return Parse("not one select")
    return Parse("syntax error")


def nodes(tree: Any, skip: Callable[[JsonNode], bool] | None = None) -> Iterator[JsonNode]:
    """Every object in a parse tree, depth first in the query's order, leaving out the subtrees `skip` names
    (iteratively: a deep query must not exhaust the stack).

    >>> [n["class"] for n in nodes([{"class": "A", "child": {"class": "B"}}, {"class": "C"}])]
    ['A', 'B', 'C']
    """
    stack = [tree]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if skip is not None and skip(item):
                continue
            yield item
            stack.extend(reversed(item.values()))
        elif isinstance(item, list):
            stack.extend(reversed(item))
