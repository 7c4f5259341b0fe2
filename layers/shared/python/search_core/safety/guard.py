"""Layer 1 of the SQL safety, on the text: one query, balanced, calling no function that the plan cannot see.

Words inside string literals and comments are data, so `WHERE description LIKE '%current_setting(%'` passes while
`SELECT current_setting('temp_directory')` is refused. What the query reads is decided later, on its parse
(`safety/bind_time.py`) and its plan (`safety/plan.py`); this check only keeps out what neither shows.

>>> from search_core.safety.policy import QueryPolicy
>>> policy = QueryPolicy(frozenset(), frozenset({"events"}), frozenset({"current_setting"}))
>>> check_text("FROM events LIMIT 3", policy)
'FROM events LIMIT 3'
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import duckdb

from search_core.engine.limits import MAX_SQL_CHARS, sql_too_long
from search_core.errors import QueryRejected
from search_core.safety.bind_time import PIVOT_REFUSED
from search_core.safety.policy import QueryPolicy

_BLANKED = (duckdb.token_type.string_const, duckdb.token_type.comment)
# Format characters (zero-width space, word joiner, byte-order mark, ...) and the line and paragraph separators.
_INVISIBLE_CATEGORIES = frozenset({"Cf", "Zl", "Zp"})
# How a query begins; any other text goes through the splitter, which names the kind of statement it is.
_QUERY_START = re.compile(r"\s*(?:\(|select|with|from|values|describe|summarize|table|unpivot|pivot)\b", re.IGNORECASE)
_QUOTED_IDENTIFIER = re.compile(r'"(?:[^"]|"")*"')


def check_text(sql: str, policy: QueryPolicy) -> str:
    """Return the single statement in `sql`, the text DuckDB will plan, if it may be planned; else raise
    QueryRejected."""
    sql = visible(sql)
    # Without a ';' the text holds at most one statement; whether it is a query shows when it is planned inside
    # `SELECT * FROM (...)`, which only a query survives. DuckDB's statement splitter runs only when needed.
    simple = ";" not in sql and 0 < len(sql) <= MAX_SQL_CHARS and _QUERY_START.match(sql)
    statement = sql.strip() if simple else single_select(sql)
    code = without_literals(statement)
    called = _denied_call(policy.denied_calls).search(code)
    if called:
        raise policy.refusal(called.group(1).strip('"').lower())
    if not _balanced(_QUOTED_IDENTIFIER.sub('""', code)):
        raise QueryRejected("SQL の括弧の対応が取れていません。")
    return statement


def visible(sql: str) -> str:
    """`sql` with every invisible format character (zero-width space, word joiner, byte-order mark, ...) made a
    space. DuckDB's parser reads several of them as spaces while Python's `\\s` and DuckDB's own tokenizer do not,
    so `current_setting\\u200b(...)` would otherwise pass the text check and run; checked and run, the text is the
    same. They carry nothing in a search term either.

    >>> visible("SELECT current_setting\\u200b('x'), '\\ufeff'")
    "SELECT current_setting ('x'), ' '"
    """
    if sql.isascii():
        return sql
    return "".join(" " if unicodedata.category(c) in _INVISIBLE_CATEGORIES else c for c in sql)


def single_select(sql: str) -> str:
    """The one SELECT in `sql` without its ';', or QueryRejected saying what is wrong (the clearer message when
    a text fails to plan)."""
    if not sql.strip():
        raise QueryRejected("sql_query が空です。SELECT 文を 1 つ送ってください。")
    if too_long := sql_too_long(sql):
        raise QueryRejected(too_long)
    try:
        statements = duckdb.extract_statements(sql)
    except duckdb.Error as error:
        raise QueryRejected(f"SQL の構文エラー: {error}") from None
    if len(statements) != 1:
        raise QueryRejected(f"SQL は SELECT 文を 1 つだけ送ってください（{len(statements)} 文ありました）。")
    statement = statements[0]
    kind = _statement_kind(statement)
    if kind == "MULTI":  # what DuckDB's parser makes of a PIVOT statement (safety/bind_time.py)
        raise QueryRejected(PIVOT_REFUSED)
    if kind != "SELECT":
        raise QueryRejected(
            f"{kind} 文は実行できません。読み取り専用の SELECT 文"
            "（WITH ... SELECT、FROM から始まる問い合わせも可）だけが使えます。"
        )
    return statement.query.strip().rstrip(";").strip()


def _statement_kind(statement: duckdb.Statement) -> str:
    """The statement's type name; DuckDB knows types its Python enum does not (MERGE INTO raises ValueError)."""
    try:
        return statement.type.name
    except ValueError:
        return "この種類の"


def without_literals(sql: str) -> str:
    """`sql` with string literals and comments blanked out, so that only code is searched.

    >>> without_literals("SELECT '無料(' -- x(\\n, f(1)").split()
    ['SELECT', ',', 'f(1)']
    """
    raw = sql.encode()  # the tokenizer gives byte offsets
    tokens = duckdb.tokenize(sql)
    pieces = [raw[: tokens[0][0]]] if tokens else [raw]
    for index, (start, kind) in enumerate(tokens):
        end = tokens[index + 1][0] if index + 1 < len(tokens) else len(raw)
        piece = raw[start:end]
        pieces.append(re.sub(rb"[^\n]", b" ", piece) if kind in _BLANKED else piece)
    return b"".join(pieces).decode(errors="replace")


def _balanced(code: str) -> bool:
    """Whether every ')' closes an earlier '(' and none is left open: the query cannot close the parenthesis it
    is wrapped in, and so cannot slip out of the row cap."""
    depth = 0
    for char in code:
        if char in "()":
            depth += 1 if char == "(" else -1
            if depth < 0:
                return False
    return depth == 0


@lru_cache(maxsize=4)
def _denied_call(names: frozenset[str]) -> re.Pattern[str]:
    """A call of any of `names`, bare or quoted, wherever it stands (`x.f()` and `schema.f()` included)."""
    alternatives = "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))
    return re.compile(rf'(?<![\w$])("?(?:{alternatives})"?)\s*\(', re.IGNORECASE)
