"""Which parts of a query speak of the table's own rows, so that asking the table about them tells the truth.

A condition asked of the table alone (`SELECT count(*) FROM events WHERE <condition>`) means what it meant in the
query only where its names are the table's columns and nothing else decides its rows:
- its SELECT is one the answer's rows come from (the query, a CTE, a subquery in FROM, a side of a UNION), never a
  subquery inside an expression (EXISTS, IN, a scalar), whose conditions filter other rows, may be negated, or may
  read the outer row;
- that SELECT reads the table alone, under no alias that renames its columns (`events AS e(a, b)`), and no CTE takes
  the table's name;
- the term holds no subquery (it may be correlated), no lambda (its parameters may take a column's name) and no
  volatile call (`random()`), and names only the table's columns, qualified by the table or its alias or not at all.

>>> import duckdb
>>> from search_core.safety.parse import parse
>>> sql = "SELECT * FROM events e WHERE e.a = 1 AND b IN (SELECT b FROM events WHERE c = 2) AND random() < 0.5"
>>> scope = table_scope(parse(duckdb.connect(), sql).statements, {"a", "b", "c"}, frozenset({"events"}))
>>> [term["class"] for term in scope.terms], scope.outer_counted
(['COMPARISON'], False)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from search_core.safety.parse import JsonNode, nodes

# Calls whose value changes from one evaluation to the next: counted again, they need not agree with the query.
_VOLATILE = frozenset({"random", "uuid", "gen_random_uuid", "uuidv4", "uuidv7"})
# Keywords DuckDB parses as names: the clock's (advice/filters.py reads them as such), not columns.
KEYWORD_NAMES = frozenset({"current_date", "current_timestamp", "current_time", "localtimestamp", "localtime"})


@dataclass(frozen=True)
class TableScope:
    """The AND-terms that speak of the table's own rows, and the query's own WHERE when the table's rows passing it
    are the rows the query's later steps (OFFSET, LIMIT, GROUP BY, ...) start from (`outer_counted`; the WHERE is
    None when there is none)."""

    terms: list[JsonNode]
    outer_where: JsonNode | None = None
    outer_counted: bool = False


def table_scope(statements: list[JsonNode], columns: set[str], tables: frozenset[str]) -> TableScope:
    """The parts of the parsed query `statements` that speak of the table (named one of `tables`, lower case)."""
    if _shadowed(statements, tables):
        return TableScope([])
    terms = []
    for select in _row_sources(statements):
        if _reads_the_table(select.get("from_table"), tables):
            names = _names_of(select["from_table"])
            terms += [t for t in and_terms(select.get("where_clause")) if _plain(t, columns, names)]
    return TableScope(terms, *_outer(statements, columns, tables))


def _outer(statements: list[JsonNode], columns: set[str], tables: frozenset[str]) -> tuple[JsonNode | None, bool]:
    """The query's own WHERE, and whether the table's rows passing it are where the answer's rows come from: the
    query reads the table alone, samples nothing, and every term of its WHERE is plain."""
    outer = statements[0].get("node") if len(statements) == 1 else None
    if not isinstance(outer, dict) or outer.get("type") != "SELECT_NODE":
        return None, False
    source = outer.get("from_table")
    if (
        not isinstance(source, dict)
        or not _reads_the_table(source, tables)
        or outer.get("sample")
        or source.get("sample")
    ):
        return None, False
    where = outer.get("where_clause")
    names = _names_of(source)
    plain = all(_plain(term, columns, names) for term in and_terms(where))
    return (where if isinstance(where, dict) else None), plain


def _row_sources(statements: list[JsonNode]) -> Iterator[JsonNode]:
    """Every SELECT the answer's rows come from, through FROM, CTEs and set operations, never through an
    expression."""
    stack: list[Any] = [statement.get("node") for statement in statements]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if not isinstance(node, dict) or id(node) in seen:
            continue
        seen.add(id(node))
        kind = node.get("type")
        if kind == "SELECT_NODE":
            yield node
        if kind in ("SELECT_NODE", "SET_OPERATION_NODE", "RECURSIVE_CTE_NODE", "CTE_NODE"):
            stack += [entry.get("value", {}).get("query_node") for entry in _ctes(node)]
            stack += [node.get("from_table"), node.get("left"), node.get("right"), *(node.get("children") or [])]
        elif kind == "SUBQUERY":
            stack.append((node.get("subquery") or {}).get("node"))
        elif kind == "JOIN":
            stack += [node.get("left"), node.get("right")]


def _reads_the_table(source: Any, tables: frozenset[str]) -> bool:
    """Whether a FROM is the table itself (`events`, `main.events`, `'events.csv'`, `events e`), its columns under
    their own names."""
    if not isinstance(source, dict) or source.get("type") != "BASE_TABLE" or source.get("catalog_name"):
        return False
    if source.get("column_name_alias"):
        return False
    name, schema = str(source.get("table_name", "")).lower(), str(source.get("schema_name", "")).lower()
    return (schema in ("", "main") and name in tables) or f"{schema}.{name}" in tables


def _names_of(source: JsonNode) -> frozenset[str]:
    """What a column may be qualified with in that SELECT: the table's alias, else its name."""
    alias = str(source.get("alias") or "").lower()
    return frozenset({alias}) if alias else frozenset({str(source.get("table_name", "")).lower()})


def _plain(term: JsonNode, columns: set[str], qualifiers: frozenset[str]) -> bool:
    """Whether `term` means the same asked of the table alone: no subquery, lambda or volatile call, and only the
    table's columns."""
    for node in nodes(term):
        kind = node.get("class")
        if kind in ("SUBQUERY", "LAMBDA") or (kind == "FUNCTION" and node.get("function_name") in _VOLATILE):
            return False
        names = column_names(node)
        if names is not None and not _the_tables(names, columns, qualifiers):
            return False
    return True


def column_names(node: JsonNode) -> list[Any] | None:
    """The names of a column reference (`["e", "start_date"]`), or None for any other node."""
    names = node.get("column_names")
    return names if node.get("class") == "COLUMN_REF" and isinstance(names, list) and names else None


def _the_tables(names: list[Any], columns: set[str], qualifiers: frozenset[str]) -> bool:
    if len(names) == 1:
        return names[0] in columns or str(names[0]).lower() in KEYWORD_NAMES
    return len(names) == 2 and str(names[0]).lower() in qualifiers and names[1] in columns


def and_terms(where: Any) -> list[JsonNode]:
    """The terms of a WHERE's AND (the WHERE itself if it is not one; none without a WHERE)."""
    terms, stack = [], [where] if isinstance(where, dict) else []
    while stack:
        term = stack.pop()
        if term.get("class") == "CONJUNCTION" and term.get("type") == "CONJUNCTION_AND":
            stack.extend(reversed([c for c in term.get("children") or [] if isinstance(c, dict)]))
        else:
            terms.append(term)
    return terms


def _ctes(node: JsonNode) -> list[JsonNode]:
    return list((node.get("cte_map") or {}).get("map") or [])


def _shadowed(statements: list[JsonNode], tables: frozenset[str]) -> bool:
    """Whether a CTE anywhere takes one of the table's names."""
    return any(str(entry.get("key", "")).lower() in tables for node in nodes(statements) for entry in _ctes(node))
