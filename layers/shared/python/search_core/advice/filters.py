"""What a query filters on, read from DuckDB's own parse: the fields its conditions test and the literals they test
them against, and the fields it converts to another type.

>>> import duckdb
>>> con = duckdb.connect()
>>> sql = "SELECT * FROM events WHERE target_audience LIKE '%ファミリー%' AND location->>'venue' IN ('森美術館', 'x')"
>>> found = conditions(con, sql, {"target_audience", "location"}, frozenset({"events"}))
>>> [(f.column, f.key, f.literals) for f in found]
[('target_audience', None, ('%ファミリー%',)), ('location', 'venue', ('森美術館', 'x'))]
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from search_core.advice.scope import KEYWORD_NAMES, and_terms, column_names, table_scope
from search_core.safety.parse import JsonNode, nodes, parse

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
# What DuckDB reads the clock with, besides the keywords it parses as names (scope.KEYWORD_NAMES).
_CLOCK_FUNCTIONS = frozenset(
    {"now", "today", "get_current_timestamp", "transaction_timestamp", "get_current_time", "current_localtimestamp"}
)
# The agent's own text of a condition is shown back up to this length (DuckDB's rendering beyond it).
_SHOWN_TEXT_BYTES = 300
# A SELECT of one expression and no FROM, for DuckDB to write a condition back from its parse.
_SELECT_TEMPLATE: JsonNode = {
    "type": "SELECT_NODE",
    "modifiers": [],
    "cte_map": {"map": []},
    "from_table": {"type": "EMPTY", "alias": "", "sample": None, "query_location": 0, "query_location_length": 0},
    "where_clause": None,
    "group_expressions": [],
    "group_sets": [],
    "aggregate_handling": "STANDARD_HANDLING",
    "having": None,
    "sample": None,
    "qualify": None,
}
_KEY_PATH = re.compile(r'^\$\.(?:"([^"]+)"|([^.\[\]"]+))$')


@dataclass(frozen=True)
class Condition:
    """`column` (or its JSON key `key`) tested by `operator` against `literals`, as written in the query. A condition
    on a computed value (`dayname(start_date) = '日曜日'`) is `computed`, and `column` then holds that expression's
    text. `sql` is the condition as DuckDB writes its parse back, columns unqualified: what can be asked of the table
    alone. `text` is the agent's own text of it, to show back. `part` when it is a part of a larger term of a WHERE's
    AND (one side of an OR): matching nothing alone, it does not empty the answer."""

    column: str
    key: str | None
    operator: str
    literals: tuple[str, ...]
    computed: bool = False
    sql: str | None = None
    text: str | None = None
    part: bool = False


@dataclass(frozen=True)
class Filters:
    """What a query tests: its conditions on fields against literals, and whether it reads the clock (`jst_today()`,
    `now()`, a macro over them), with the columns it compares to the clock."""

    conditions: list[Condition] = field(default_factory=list)
    reads_clock: bool = False
    # The WHERE terms that read the clock, to be asked of the table alone; None when one cannot be (the clock is
    # read elsewhere, in a CTE or the select list, or DuckDB cannot write a term back).
    clock_predicates: tuple[str, ...] | None = None
    clock_columns: tuple[str, ...] = ()
    # The query's own WHERE (TRUE without one) when the query reads the table directly: rows passing it that the
    # answer lacks were taken by what follows the WHERE (OFFSET, LIMIT, GROUP BY, HAVING, ...).
    where_sql: str | None = None
    # Each AND-term of that WHERE, when every one can be written back: what a claim about "each condition alone"
    # must have counted, conditions without a hint among them.
    where_terms: tuple[WhereTerm, ...] = ()


@dataclass(frozen=True)
class WhereTerm:
    """One AND-term of the query's own WHERE: as DuckDB writes it back (to be counted) and as the agent wrote it;
    whether it reads the clock (what the clock's note says of it, no hint repeats)."""

    sql: str
    text: str
    reads_clock: bool = False


@dataclass(frozen=True)
class Conversion:
    """`column` (or its JSON key) converted to `type` by a CAST (not TRY_CAST) in the query."""

    column: str
    key: str | None
    type: str


def conditions(con: duckdb.DuckDBPyConnection, sql: str, columns: set[str], tables: frozenset[str]) -> list[Condition]:
    """Every condition of `sql` on the table itself (the WHERE of any SELECT that reads the table named one of
    `tables` alone: the query, a subquery, a CTE) that tests one of `columns` against literals; each once."""
    return filters(con, sql, columns, tables).conditions


def filters(
    con: duckdb.DuckDBPyConnection,
    sql: str,
    columns: set[str],
    tables: frozenset[str],
    clock_calls: frozenset[str] = frozenset(),
) -> Filters:
    """The conditions of `sql` on the table and its use of the clock, read from one parse.

    Only the terms that speak of the table's own rows (advice/scope.py) give conditions, clock predicates and the
    query's own WHERE to count: elsewhere a name may mean another column, and asking the table about it could
    contradict the query. `clock_calls` are the table's macros that read the clock, besides DuckDB's own clock
    functions. A clock predicate is such a term that reads the clock (`jst_today() BETWEEN start_date AND end_date`,
    `is_open_now(opening_hours)`), written back by DuckDB to be asked of the table alone; they are given only when
    every read of the clock is in one. Negated conditions (NOT, CASE) are not among the conditions: they are not what
    made an answer empty.

    >>> import duckdb
    >>> con = duckdb.connect()
    >>> sql = "SELECT 1 FROM t WHERE today() BETWEEN d AND e AND n = 'x'"
    >>> found = filters(con, sql, {"d", "e", "n"}, frozenset({"t"}))
    >>> found.clock_predicates, found.clock_columns, [c.text for c in found.conditions]
    (('(today() BETWEEN d AND e)',), ('d', 'e'), ["n = 'x'"])
    >>> [t.text for t in found.where_terms], [t.reads_clock for t in found.where_terms]
    (['today() BETWEEN d AND e', "n = 'x'"], [True, False])
    >>> filters(con, "WITH u AS (SELECT d AS n FROM t) SELECT 1 FROM u WHERE n = 'x'", {"n"}, frozenset({"t"}))
    Filters(conditions=[], reads_clock=False, clock_predicates=None, clock_columns=(), where_sql=None, where_terms=())
    """
    statements = parse(con, sql).statements
    scope = table_scope(statements, columns, tables)
    source = sql.encode()
    found: dict[str, Condition] = {}
    whole = {id(term) for term in scope.terms}
    for node in nodes(scope.terms, skip=_negating):
        condition = _condition(node, columns, source)
        if condition is not None:
            rendered = _rendered(con, node, columns)
            located = _located(condition, rendered, node, source, part=id(node) not in whole)
            found.setdefault(rendered or repr(condition), located)
    clock = _CLOCK_FUNCTIONS | clock_calls
    where_sql: str | None = None
    where_terms: tuple[WhereTerm, ...] = ()
    if scope.outer_counted:
        where_sql = _rendered(con, scope.outer_where, columns) if scope.outer_where else "TRUE"
        where_terms = _where_terms(con, scope.outer_where, columns, source, clock)
    reads = _clock_reads(statements, columns, clock)
    if not reads:
        return Filters(list(found.values()), where_sql=where_sql, where_terms=where_terms)
    terms = [term for term in scope.terms if _clock_reads(term, columns, clock)]
    predicates = [text for term in terms if (text := _rendered(con, term, columns)) is not None]
    isolated = bool(terms) and len(predicates) == len(terms) and _clock_reads(terms, columns, clock) == reads
    # The columns compared with the clock; where the clock's part cannot be isolated, every column the query names.
    read = [name for part in (terms if isolated else statements) for name in _columns_read(part, columns)]
    clock_predicates = tuple(predicates) if isolated else None
    return Filters(list(found.values()), True, clock_predicates, tuple(dict.fromkeys(read)), where_sql, where_terms)


def _where_terms(
    con: duckdb.DuckDBPyConnection, where: JsonNode | None, columns: set[str], source: bytes, clock: frozenset[str]
) -> tuple[WhereTerm, ...]:
    """The AND-terms of the query's own WHERE, each written back by DuckDB; none if any one cannot be."""
    terms = []
    for node in and_terms(where):
        rendered = _rendered(con, node, columns)
        if rendered is None:
            return ()
        text = _source_text(node, source, _SHOWN_TEXT_BYTES) or rendered
        terms.append(WhereTerm(rendered, text, bool(_clock_reads(node, columns, clock))))
    return tuple(terms)


def conversions(con: duckdb.DuckDBPyConnection, sql: str, columns: set[str]) -> list[Conversion]:
    """Every CAST of one of `columns` (or a JSON key of one) in `sql`."""
    found: dict[tuple[str, str | None, str], Conversion] = {}
    for node in nodes(parse(con, sql).statements):
        if node.get("class") == "CAST" and not node.get("try_cast"):
            field = _field(node.get("child"), columns)
            type_name = _type_name(node)
            if field is not None and type_name:
                found.setdefault((*field, type_name), Conversion(*field, type_name))
    return list(found.values())


def _negating(node: JsonNode) -> bool:
    kind = (str(node.get("class")), str(node.get("type")))
    return kind in _NEGATING or node.get("function_name") in _NEGATED_MATCHERS


def _located(condition: Condition, rendered: str | None, node: JsonNode, source: bytes, part: bool) -> Condition:
    """`condition` with its rendering and the agent's own text of it (DuckDB's rendering where that cannot be cut
    out whole), and whether it is part of a larger term."""
    text = _source_text(node, source, _SHOWN_TEXT_BYTES) or rendered
    return replace(condition, sql=rendered, text=text, part=part)


def _rendered(con: duckdb.DuckDBPyConnection, node: JsonNode, columns: set[str]) -> str | None:
    """The condition `node` as DuckDB writes it back from its parse, `e.start_date` read as `start_date`, so that it
    can be asked of the table alone; None if DuckDB cannot write it.

    >>> import duckdb
    >>> con = duckdb.connect()
    >>> where = parse(con, "SELECT 1 FROM t AS e WHERE e.d >= DATE '2026-01-04'").statements[0]["node"]["where_clause"]
    >>> _rendered(con, where, {"d"})
    "(d >= CAST('2026-01-04' AS DATE))"
    """
    unqualified = json.loads(json.dumps(node))
    for inner in nodes(unqualified):
        names = column_names(inner)
        if names is not None and names[-1] in columns:
            inner["column_names"] = names[-1:]
    statement = {"node": {**_SELECT_TEMPLATE, "select_list": [unqualified]}}
    serialized = json.dumps({"error": False, "statements": [statement]})
    try:
        row = con.execute("SELECT json_deserialize_sql(?)", [serialized]).fetchone()
    except Exception:
        return None
    return str(row[0]).removeprefix("SELECT ").strip() or None if row else None


def _reads_clock(node: JsonNode, columns: set[str], clock: frozenset[str]) -> bool:
    """A call of a clock function or macro, or a keyword such as `current_date`, which DuckDB parses as a name."""
    if node.get("class") == "FUNCTION":
        return str(node.get("function_name", "")).lower() in clock
    names = column_names(node)
    if names is not None and len(names) == 1:
        return str(names[0]).lower() in KEYWORD_NAMES and names[0] not in columns
    return False


def _clock_reads(tree: Any, columns: set[str], clock: frozenset[str]) -> int:
    """How many times `tree` reads the clock (a lambda's parameter may be called current_date: not a read)."""
    return sum(_reads_clock(node, columns, clock) for node in nodes(tree, skip=lambda n: n.get("class") == "LAMBDA"))


def _columns_read(node: Any, columns: set[str]) -> list[str]:
    return [name[-1] for inner in nodes(node) if (name := column_names(inner)) and name[-1] in columns]


def clock_macros(macros: dict[str, str]) -> frozenset[str]:
    """The names of `macros` (name → body) that read the clock, directly or through one another.

    >>> sorted(clock_macros({"jst_now": "now() + INTERVAL 9 HOUR", "open_now": "f(h, jst_now())", "g": "lower(x)"}))
    ['jst_now', 'open_now']
    """
    reading = set(_CLOCK_FUNCTIONS | KEYWORD_NAMES)
    while True:  # to a fixed point: a macro over a clock macro reads the clock too
        calls = re.compile(r"\b(" + "|".join(map(re.escape, sorted(reading))) + r")\b", re.IGNORECASE)
        more = {name for name, body in macros.items() if name not in reading and calls.search(body)}
        if not more:
            return frozenset(reading & set(macros))
        reading |= more


def _condition(node: JsonNode, columns: set[str], source: bytes) -> Condition | None:
    kind = node.get("class")
    if not isinstance(node.get("type"), str):  # a sample's size or a type, not an expression
        return None
    if kind == "FUNCTION" and node.get("function_name") in _MATCHERS:
        if not _arguments(node):  # `contains()` in a CTE or macro argument DuckDB never bound
            return None
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
    if not any(_field(inner, columns) for inner in nodes(_arguments(node))):
        return None
    return _source_text(node, source, 500)


def _source_text(node: JsonNode, source: bytes, most: int) -> str | None:
    """The query's own text of `node`, if DuckDB located it and it is at most `most` bytes long. DuckDB places an
    operator written between its operands (`a LIKE 'x'`, `d BETWEEN 1 AND 2`) at the operator, so the text runs from
    the first to the last place of any part of it.

    >>> import duckdb
    >>> sql = "SELECT 1 WHERE target_audience LIKE '家族%'"
    >>> where = parse(duckdb.connect(), sql).statements[0]["node"]["where_clause"]
    >>> _source_text(where, sql.encode(), 100)
    "target_audience LIKE '家族%'"
    """
    spans = [
        (start, start + length)
        for part in nodes(node)
        if isinstance(start := part.get("query_location"), int)
        and isinstance(length := part.get("query_location_length"), int)
        and length > 0
        and start + length <= len(source)
    ]
    if not spans:
        return None
    first, last = _parenthesised(source, min(s for s, _ in spans), max(e for _, e in spans))
    if last - first > most:
        return None
    text = source[first:last].decode(errors="replace").strip()
    return text if text and text.count("(") == text.count(")") else None


def _parenthesised(source: bytes, first: int, last: int) -> tuple[int, int]:
    """The span widened over the parentheses around its first or last part that DuckDB leaves out of every
    location: `(a || b) LIKE 'x'` is located from `a` to `'x'`.

    >>> sql = b"WHERE (a || b) LIKE 'x'"
    >>> first, last = _parenthesised(sql, 7, len(sql))
    >>> sql[first:last]
    b"(a || b) LIKE 'x'"
    """
    opened = source[first:last].count(b"(") - source[first:last].count(b")")
    while opened < 0 and first > 0 and source[first - 1 : first] in (b"(", b" ", b"\t", b"\n"):
        first -= 1
        opened += source[first : first + 1] == b"("
    while opened > 0 and last < len(source) and source[last : last + 1] in (b")", b" ", b"\t", b"\n"):
        last += 1
        opened -= source[last - 1 : last] == b")"
    return first, last


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


def _arguments(node: JsonNode) -> list[Any]:
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


def _type_name(node: JsonNode) -> str | None:
    expression = node.get("type_expr") or {}
    if expression.get("type_name"):
        return str(expression["type_name"]).upper()
    cast_type = node.get("cast_type") or {}
    return str(cast_type.get("id")) if cast_type.get("id") else None
