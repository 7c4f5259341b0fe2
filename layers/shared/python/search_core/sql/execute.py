"""Layer 3 of the SQL safety: run one guarded query with a row cap and a deadline.

The row cap is applied to the query as a whole (`LIMIT max_rows + 1` around it), so aggregates still see every
row, the query's own ORDER BY and smaller LIMIT are kept, and one extra row tells that the result was cut.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import duckdb

from search_core.errors import QueryAborted, QueryFailed
from search_core.scrub import scrub_paths
from search_core.sql.guard import check_query
from search_core.sql.limits import QueryLimits
from search_core.sql.values import Clipper


@dataclass
class QueryResult:
    columns: list[str]
    rows: list[list[Any]]
    truncated: bool = False
    meta: dict[str, Any] = field(default_factory=dict)


def run_query(
    con: duckdb.DuckDBPyConnection, sql: str, table_names: frozenset[str], limits: QueryLimits
) -> QueryResult:
    """Guard, bound and run `sql`; raise QueryRejected, QueryFailed or QueryAborted with a Japanese message."""
    statement = check_query(con, sql, table_names)
    try:
        with _deadline(con, limits.timeout_seconds):
            relation = con.sql(statement)
            columns = _unique_names(relation.columns)
            rows = _json_friendly(relation).limit(limits.max_rows + 1).fetchall()
    except duckdb.InterruptException:
        raise QueryAborted(
            f"クエリが制限時間（{limits.timeout_seconds:g} 秒）を超えたため中断しました。"
            "条件を絞るか、より単純な SQL にしてください。"
        ) from None
    except duckdb.OutOfMemoryException:
        raise QueryAborted(_memory_message(limits)) from None
    except duckdb.Error as error:
        raise QueryFailed(f"SQL の実行エラー: {scrub_paths(str(error))}") from None
    clipper = Clipper(limits.max_cell_chars)
    shaped = [[clipper.convert(v) for v in row] for row in rows[: limits.max_rows]]
    return QueryResult(columns, shaped, truncated=len(rows) > limits.max_rows or clipper.clipped)


def _memory_message(limits: QueryLimits) -> str:
    return (
        f"クエリがメモリ上限（約 {limits.duckdb_memory_mb} MB）を超えたため中断しました。"
        "巨大な文字列・結合・再帰を避け、条件を絞ってください。"
    )


@contextmanager
def _deadline(con: duckdb.DuckDBPyConnection, seconds: float) -> Iterator[None]:
    """Interrupt the connection if the block runs past `seconds`; never interrupt a later query."""
    lock = threading.Lock()
    active = True

    def interrupt() -> None:
        with lock:
            if active:
                con.interrupt()

    timer = threading.Timer(seconds, interrupt)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        with lock:
            active = False
        timer.cancel()


def _json_friendly(relation: duckdb.DuckDBPyRelation) -> duckdb.DuckDBPyRelation:
    """Cast columns holding TIMESTAMP WITH TIME ZONE to text: converting those to Python needs pytz."""
    types = [str(t) for t in relation.types]
    if not any("WITH TIME ZONE" in t for t in types):
        return relation
    projection = [f"CAST(#{i} AS VARCHAR)" if "WITH TIME ZONE" in t else f"#{i}" for i, t in enumerate(types, start=1)]
    return relation.project(", ".join(projection))


def _unique_names(names: list[str]) -> list[str]:
    """Results are returned as objects, so a repeated column name must not swallow a value.

    >>> _unique_names(["x", "x", "y"])
    ['x', 'x_2', 'y']
    """
    seen: dict[str, int] = {}
    unique = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        unique.append(name if seen[name] == 1 else f"{name}_{seen[name]}")
    return unique
