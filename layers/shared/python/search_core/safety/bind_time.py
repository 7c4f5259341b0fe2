"""Layer 1 of the SQL safety, on DuckDB's parse: no query runs while a statement is bound.

Planning (our `EXPLAIN` included) runs nothing of a SELECT, except what DuckDB's parser rewrote into statements of
its own. A PIVOT without an IN list is such a form: the parser turns it into `CREATE TYPE ... AS ENUM (SELECT
DISTINCT ...)` ahead of the SELECT, and that query runs, over whatever it names (system views included), before
there is a plan to check, under DESCRIBE, SUMMARIZE, a CTE or a subquery alike. DuckDB's `json_serialize_sql` takes
exactly the texts its parser made one SELECT tree, so the rule is that one: a statement it refuses as "not
implemented" is refused here, whatever wrapper hides it. Inside that tree, PIVOT and UNPIVOT are refused in any
position too, so nothing depends on which of their forms DuckDB evaluates early; and so is `SHOW name`, whose binding
reads a setting (`SHOW allowed_paths` lists the attached file's path) and hands the plan only its value. What else
runs while planning — constant calls folded by the optimizer, SQL given as text — the text check refuses by name
(`safety/guard.py`).

>>> import duckdb
>>> con = duckdb.connect()
>>> refuse_bind_time_queries(con, "SELECT * FROM (DESCRIBE PIVOT duckdb_databases ON path USING count(*))")
Traceback (most recent call last):
...
search_core.errors.QueryRejected: PIVOT・UNPIVOT は使えません。...
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from search_core.errors import QueryRejected
from search_core.safety.parse import nodes, parse

if TYPE_CHECKING:
    import duckdb

PIVOT_REFUSED = (
    "PIVOT・UNPIVOT は使えません。列ごとの集計は count(*) FILTER (WHERE ...) や CASE WHEN で、"
    "列を行にするには UNION ALL か unnest([...]) で書いてください。"
)
_SHOW_REFUSED = (
    "SHOW は使えません（設定は読めません）。テーブルの列は DESCRIBE テーブル名、値の概要は SUMMARIZE テーブル名 で"
    "確かめられます。"
)
_NOT_ONE_SELECT = (
    "この形の問い合わせは実行できません（DuckDB が複数の文に書き換える形です）。"
    "PIVOT を使わない 1 つの SELECT 文で書いてください。"
)


def refuse_bind_time_queries(con: duckdb.DuckDBPyConnection, statement: str) -> None:
    """Raise QueryRejected unless DuckDB parses `statement` as one SELECT tree holding no PIVOT or UNPIVOT.

    A text DuckDB cannot parse passes: running it reports the syntax error as DuckDB words it.
    """
    parsed = parse(con, statement)
    if parsed.kind == "not one select":
        raise QueryRejected(PIVOT_REFUSED if "pivot" in statement.lower() else _NOT_ONE_SELECT)
    if parsed.kind == "too deep":  # a SELECT too deep to walk here: refused if anything in it could be a PIVOT
        if '"PIVOT"' in parsed.text:
            raise QueryRejected(PIVOT_REFUSED)
        return
    for node in nodes(parsed.statements):
        if _is_pivot(node):
            raise QueryRejected(PIVOT_REFUSED)
        if _shows_a_name(node):
            raise QueryRejected(_SHOW_REFUSED)


def _shows_a_name(node: dict[str, object]) -> bool:
    """`SHOW name` (and SHOW TABLES and the like): for a name that is no table, DuckDB reads the setting of that name
    while binding and hands its value to the plan as constant data, which no plan check can tell from a VALUES list.
    DESCRIBE and SUMMARIZE of a table or a query carry the query instead, and are planned like any other."""
    return node.get("type") == "SHOW_REF" and not node.get("query")


def _is_pivot(node: dict[str, object]) -> bool:
    """A PIVOT or UNPIVOT table reference (DuckDB serialises both as one kind)."""
    return node.get("type") == "PIVOT" and "pivots" in node
