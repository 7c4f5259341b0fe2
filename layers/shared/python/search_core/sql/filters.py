"""What a query filters on, read from DuckDB's own parse: the fields its conditions test and the literals they test
them against, and the fields it converts to another type.

>>> import duckdb
>>> con = duckdb.connect()
>>> sql = "SELECT * FROM events WHERE target_audience LIKE '%ファミリー%' AND location->>'venue' IN ('森美術館', 'x')"
>>> [(f.column, f.key, f.literals) for f in conditions(con, sql, {"target_audience", "location"})]
[('target_audience', None, ('%ファミリー%',)), ('location', 'venue', ('森美術館', 'x'))]
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import duckdb

# Functions whose first argument is tested against the literal(s) that follow it (LIKE ... ESCAPE is left out: its
# pattern means something else).
_MATCHERS = {
    "~~": "LIKE",
    "~~*": "ILIKE",
    "contains": "contains",
    "starts_with": "starts_with",
    "prefix": "starts_with",
    "ends_with": "ends_with",
    "suffix": "ends_with",
    "regexp_matches": "regexp",
    "regexp_full_match": "regexp",
    "~": "regexp",
    "list_contains": "contains",
    "list_has": "contains",
    "array_contains": "contains",
    "json_contains": "contains",
}
_COMPARISONS = {
    "COMPARE_EQUAL": "=",
    "COMPARE_GREATERTHAN": ">",
    "COMPARE_GREATERTHANOREQUALTO": ">=",
    "COMPARE_LESSTHAN": "<",
    "COMPARE_LESSTHANOREQUALTO": "<=",
}
# Casts that leave a text value as it is; any other call (lower(), a cast to DATE) tests a computed value.
_TEXT_TYPES = {"VARCHAR", "TEXT", "STRING", "JSON"}
# What inverts or replaces the truth of the conditions under it: they are not what made the answer empty.
_NEGATING = {("OPERATOR", "OPERATOR_NOT"), ("CASE", "CASE_EXPR")}
_NEGATED_MATCHERS = {"!~~", "!~~*", "!~", "not_like_escape", "not_ilike_escape"}
_JSON_GETTERS = {"->>", "->", "json_extract_string", "json_extract", "json_value"}
_KEY_PATH = re.compile(r'^\$\.(?:"([^"]+)"|([^.\[\]"]+))$')


@dataclass(frozen=True)
class Condition:
    """`column` (or its JSON key `key`) tested by `operator` against `literals`, as written in the query. A condition
    on a computed value (`dayname(start_date) = '日曜日'`) is `computed`, and `column` then holds that expression's
    text."""

    column: str
    key: str | None
    operator: str
    literals: tuple[str, ...]
    computed: bool = False


@dataclass(frozen=True)
class Conversion:
    """`column` (or its JSON key) converted to `type` by a CAST (not TRY_CAST) in the query."""

    column: str
    key: str | None
    type: str


def conditions(con: duckdb.DuckDBPyConnection, sql: str, columns: set[str]) -> list[Condition]:
    """Every condition of `sql` (anywhere: WHERE, JOIN ON, subqueries) that tests one of `columns` against literals;
    each (field, operator) once."""
    found: dict[tuple[str, str | None, str], Condition] = {}
    source = sql.encode()
    for node in _nodes(_parse(con, sql), skip=_negating):
        condition = _condition(node, columns, source)
        if condition is not None:
            found.setdefault((condition.column, condition.key, condition.operator), condition)
    return list(found.values())


def conversions(con: duckdb.DuckDBPyConnection, sql: str, columns: set[str]) -> list[Conversion]:
    """Every CAST of one of `columns` (or a JSON key of one) in `sql`."""
    found: dict[tuple[str, str | None, str], Conversion] = {}
    for node in _nodes(_parse(con, sql)):
        if node.get("class") == "CAST" and not node.get("try_cast"):
            field = _field(node.get("child"), columns)
            type_name = _type_name(node)
            if field is not None and type_name:
                found.setdefault((*field, type_name), Conversion(*field, type_name))
    return list(found.values())


def _parse(con: duckdb.DuckDBPyConnection, sql: str) -> Any:
    row = con.execute("SELECT json_serialize_sql(?)", [sql]).fetchone()
    try:
        parsed = json.loads(row[0]) if row else {}
    except RecursionError:  # nested deeper than this Python reads JSON: no conditions, not a failure
        return []
    return [] if parsed.get("error") else parsed.get("statements", [])


def _negating(node: dict[str, Any]) -> bool:
    return (node.get("class"), node.get("type")) in _NEGATING or node.get("function_name") in _NEGATED_MATCHERS


def _nodes(tree: Any, skip: Callable[[dict[str, Any]], bool] | None = None) -> Iterator[dict[str, Any]]:
    """Every object in the parse tree, depth first in the query's order, leaving out the subtrees `skip` names
    (iteratively: a deep query must not exhaust the stack)."""
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


def _condition(node: dict[str, Any], columns: set[str], source: bytes) -> Condition | None:
    kind = node.get("class")
    if kind == "FUNCTION" and node.get("function_name") in _MATCHERS:
        target, *tested = _arguments(node)
        operator = _MATCHERS[node["function_name"]]
    elif kind == "COMPARISON" and node.get("type") in _COMPARISONS:
        target, tested, operator = node.get("left"), [node.get("right")], _COMPARISONS[node["type"]]
        if _literal(target) is not None:  # a literal on the left: 'x' = column
            target, tested = node.get("right"), [node.get("left")]
    elif kind == "OPERATOR" and node.get("type") == "COMPARE_IN":
        target, *tested = node.get("children") or [None]
        operator = "IN"
    elif kind == "BETWEEN":
        target, tested, operator = node.get("input"), [node.get("lower"), node.get("upper")], "BETWEEN"
    else:
        return None
    field = _field(target, columns)
    literals = tuple(text for text in (_literal(t) for t in tested) if text is not None)
    if not literals or len(literals) != len(tested):
        return None
    if field is not None:
        return Condition(field[0], field[1], operator, literals)
    expression = _computed_text(target, columns, source)
    return None if expression is None else Condition(expression, None, operator, literals, computed=True)


def _computed_text(node: Any, columns: set[str], source: bytes) -> str | None:
    """The query's own text of a call that reads one of `columns` (`dayname(start_date)`), or None."""
    if not isinstance(node, dict) or node.get("class") != "FUNCTION":
        return None
    if not any(_field(inner, columns) for inner in _nodes(_arguments(node))):
        return None
    start, length = node.get("query_location"), node.get("query_location_length")
    if not isinstance(start, int) or not isinstance(length, int) or not 0 < length <= 500:
        return None
    text = source[start : start + length].decode(errors="replace").strip()
    return text if text and text.count("(") == text.count(")") else None


def _field(node: Any, columns: set[str]) -> tuple[str, str | None] | None:
    """(column, JSON key or None) that `node` reads as it is stored: a column, a top-level JSON key, through casts
    to text. Anything else is a computed value (None here)."""
    while isinstance(node, dict):
        kind = node.get("class")
        if kind == "COLUMN_REF":
            name = (node.get("column_names") or [""])[-1]
            return (name, None) if name in columns else None
        if kind == "CAST" and _type_name(node) in _TEXT_TYPES:
            node = node.get("child")
            continue
        if kind != "FUNCTION":
            return None
        name, arguments = node.get("function_name"), _arguments(node)
        if name in _JSON_GETTERS and len(arguments) == 2:
            column = _field(arguments[0], columns)
            path = _literal(arguments[1])
            key = _key_of(path) if path is not None else None
            if column is None or column[1] is not None or key is None:
                return None
            return column[0], key
        return None
    return None


def _key_of(path: str) -> str | None:
    """The top-level key a JSON path names ('venue', '$.venue', '$."venue"'); None for any other path.

    >>> _key_of("venue"), _key_of('$."会場"'), _key_of("$[*]"), _key_of("$.venue.x")
    ('venue', '会場', None, None)
    """
    if not path.startswith("$"):
        return path
    match = _KEY_PATH.match(path)
    return (match.group(1) or match.group(2)) if match else None


def _arguments(node: dict[str, Any]) -> list[Any]:
    """A call's arguments, as DuckDB 2 (`arguments` with `expression`) and 1.x (`children`) serialise them."""
    if "arguments" in node:
        return [argument.get("expression") for argument in node["arguments"]]
    return list(node.get("children") or [])


def _literal(node: Any) -> str | None:
    """The text of a constant, through CASTs (DATE '2025-10-01'); None for anything else."""
    while isinstance(node, dict) and node.get("class") == "CAST":
        node = node.get("child")
    if not isinstance(node, dict) or node.get("class") != "CONSTANT":
        return None
    if "literal" in node:
        if "NULL" in str(node["literal"].get("kind", "")):  # `= NULL` is never true: not a value to look for
            return None
        text = node["literal"].get("text")
    else:
        value = node.get("value") or {}
        text = None if value.get("is_null") else value.get("value")
    return None if text is None else str(text)


def _type_name(node: dict[str, Any]) -> str | None:
    expression = node.get("type_expr") or {}
    if expression.get("type_name"):
        return str(expression["type_name"]).upper()
    cast_type = node.get("cast_type") or {}
    return str(cast_type.get("id")) if cast_type.get("id") else None
