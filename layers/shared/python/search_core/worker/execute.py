"""Layer 3 of the SQL safety: run one guarded query with a row cap, a deadline and a bounded result.

The row cap is applied to the query as a whole (`SELECT * FROM (query) LIMIT max_rows + 1`), so aggregates still see
every row, the query's own ORDER BY and smaller LIMIT are kept, and one extra row tells that the result was cut.
The plan of that bounded query is authorised (`safety/plan.py`) in the same transaction and under the same deadline
as its run, and what comes back is cut to a size the parent can shape quickly, whatever its nesting.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime
from datetime import time as time_of_day
from typing import Any

import duckdb

from search_core.advice.explain import FAILED_PREFIX, READ_CHARS, UNREADABLE_ERROR, explain, short, unknown_name
from search_core.engine.budget import BUDGET_BYTES, REPLY_BUDGET_BYTES, fit_rows
from search_core.engine.limits import TEXTS_KEPT, QueryLimits
from search_core.engine.quoting import quote_identifier
from search_core.engine.table import TableSpec
from search_core.engine.values import Clipper
from search_core.engine.watchdog import WATCHDOG
from search_core.errors import QueryAborted, QueryFailed, QueryRejected, SearchError
from search_core.safety.bind_time import refuse_bind_time_queries
from search_core.safety.guard import check_text, single_select
from search_core.safety.plan import authorize_plan
from search_core.safety.policy import QueryPolicy
from search_core.scrub import scrub_paths
from search_core.worker.result import QueryResult

# DuckDB's date and time types, as a result's description names them (TIME_NS, TIMESTAMP_S, ... WITH TIME ZONE);
# those of them Python holds exactly, but for ±infinity.
_TEMPORAL = re.compile(r"\b(?:DATE|TIME|TIMESTAMP|TIMESTAMPTZ|TIMETZ|INTERVAL)(?:_[A-Z]+)?\b")
_ALWAYS_TEXT = re.compile(r"\bMAP\((?!VARCHAR,)|\b(?:VARIANT|UNION|GEOMETRY)\b")
_PLAIN_DATE = re.compile(r"DATE|TIME|TIMESTAMP|TIMESTAMP_S|TIMESTAMP_MS")
# How a statement is wrapped to cap its rows, and a name that wrapping may have renamed (a repeat becomes a_1).
_WRAP_HEAD, _WRAP_TAIL = "SELECT * FROM (\n", "\n) LIMIT "
_SUFFIXED = re.compile(r"_\d+$")
# DuckDB's single-precision type, which Python holds only as a double.
_SINGLE = "FLOAT"
# What DuckDB's Python conversion makes of ±infinity (a real value there is read again as text, which is exact too).
_PYTHON_LIMITS = (date.max, date.min, datetime.max, datetime.min, time_of_day.max)


def run_query(
    con: duckdb.DuckDBPyConnection,
    sql: str,
    policy: QueryPolicy,
    limits: QueryLimits,
    table: TableSpec,
    deadline: float | None = None,
    room: int = REPLY_BUDGET_BYTES,
) -> QueryResult:
    """Guard, bound and run `sql` over `table`, DuckDB interrupted at `deadline` (time.monotonic(); by default, the
    interrupt deadline of a request received now), the rows cut to take at most `room` bytes in the answer's body;
    raise QueryRejected, QueryFailed or QueryAborted with a Japanese message."""
    interrupt_at = limits.interrupt_deadline(time.monotonic()) if deadline is None else deadline
    try:
        with _one_transaction(con), WATCHDOG.until(con, interrupt_at):
            bounded = authorize(con, sql, policy, limits)
            columns, rows = _fetch(con, bounded, limits.max_rows + 1)
    except duckdb.ParserException as error:
        single_select(sql)  # not one query: that is the clearer reason
        raise QueryRejected(short(f"SQL の構文エラー: {scrub_paths(str(error))}")) from None
    except duckdb.PermissionException:
        raise QueryRejected(f"ファイル・ネットワーク・設定は読めません。{policy.tables_hint}") from None
    except duckdb.CatalogException as error:
        raise unknown_name(error, policy) from None
    except duckdb.InterruptException:
        raise QueryAborted(limits.timeout_message) from None
    except duckdb.OutOfMemoryException:
        raise QueryAborted(limits.memory_message) from None
    except duckdb.Error as error:
        raise _explained(con, sql, error, table, limits) from None
    except UnicodeDecodeError:
        # DuckDB cut its own message inside a character (it echoes a value at fault), so the message is lost.
        raise QueryFailed(UNREADABLE_ERROR) from None
    except RecursionError:
        raise QueryFailed(
            FAILED_PREFIX + "SQL の入れ子が深すぎます。式を分けて、より浅い SQL にしてください。"
        ) from None
    clipper = Clipper(limits.max_cell_chars)
    kept = rows[: limits.max_rows]
    # Each row gets its share of what a response can hold (a character takes at least a byte), so one huge value
    # cannot crowd out the other rows and converting stops where nothing more could be shown.
    shaped = [clipper.convert_row(row, BUDGET_BYTES // max(1, len(kept))) for row in kept]
    bounded_rows, cut = _within_room(columns, shaped, min(room, REPLY_BUDGET_BYTES))
    return QueryResult(columns, bounded_rows, truncated=len(rows) > limits.max_rows or clipper.clipped or cut)


def authorize(con: duckdb.DuckDBPyConnection, sql: str, policy: QueryPolicy, limits: QueryLimits) -> str:
    """The bounded statement to run for `sql`, once its text, its parse and its plan are allowed (raises otherwise).

    The row cap wraps the statement, so the parse and the plan authorised are those of what runs. The plan is checked
    on every run, and holds only for a run in the same transaction (`_one_transaction`). Planning errors are DuckDB's.
    """
    bounded = _checked_text(con, sql, policy, limits)
    authorize_plan(con, bounded, policy)
    return bounded


def _checked_text(con: duckdb.DuckDBPyConnection, sql: str, policy: QueryPolicy, limits: QueryLimits) -> str:
    """The bounded statement for `sql` once its text and its parse are allowed: checked once per text, as neither
    check reads anything but the text."""
    key, checked = (sql, limits.max_rows), policy.checked_texts
    if key not in checked:
        statement = check_text(sql, policy)
        # One execute of the wrapped query later: the relation API would bind and plan it two or three times.
        bounded = f"{_WRAP_HEAD}{statement}{_WRAP_TAIL}{limits.max_rows + 1}"
        refuse_bind_time_queries(con, bounded)
        if len(checked) >= TEXTS_KEPT:
            del checked[next(iter(checked))]  # the oldest
        checked[key] = bounded
    return checked[key]


@contextmanager
def _one_transaction(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """The plan check and the run in one transaction. DuckDB folds what is fixed for a transaction (the clock, the
    transaction id) into a plan: in separate transactions, `WHERE txid_current() % 3 = 1` could make a view of the
    settings an empty result for the check and a scan of them for the run."""
    con.begin()
    try:
        yield
    finally:
        con.rollback()  # nothing was written


def _explained(
    con: duckdb.DuckDBPyConnection, sql: str, error: duckdb.Error, table: TableSpec, limits: QueryLimits
) -> SearchError:
    """The error told with the way forward, which may look at the data (a value that would not convert) within
    `limits.explain_seconds`; DuckDB's own first sentence if that fails."""
    try:
        with WATCHDOG.deadline(con, limits.explain_seconds):
            return explain(con, sql, error, table)
    except (duckdb.Error, RecursionError, UnicodeDecodeError):
        return QueryFailed(short(FAILED_PREFIX + scrub_paths(str(error)[:READ_CHARS]).splitlines()[0]))


def _within_room(columns: list[str], rows: list[list[Any]], room: int) -> tuple[list[list[Any]], bool]:
    """Rows cut (values first, then trailing rows) to take at most `room` bytes as the answer's `results`: the only
    place an answer's rows are fitted (a body's size is its parts' sizes, so the parent works out the room once)."""
    as_objects = [dict(zip(columns, row, strict=True)) for row in rows]
    fitted, cut = fit_rows(as_objects, lambda r: r, room)
    if rows and not fitted:
        raise QueryFailed("結果の 1 行が大きすぎて返せません。SELECT する列を絞ってください。")
    return [list(row.values()) for row in fitted], cut


def _fetch(con: duckdb.DuckDBPyConnection, bounded: str, most: int) -> tuple[list[str], list[Any]]:
    """The columns and at most `most` rows of `bounded`, every date and time exactly as DuckDB holds it.

    Python's types change some: nanoseconds are cut to microseconds, a month interval becomes 30 days, map keys
    that become equal collapse, a time zone needs pytz, and ±infinity becomes the largest or smallest date. Columns of
    such types come back as DuckDB's own text; a plain DATE or TIMESTAMP column stays a date unless a value reached
    Python's limit (infinity, or the year 9999), and the query is then read again with its dates as text.
    """
    cursor = con.execute(bounded)
    description = cursor.description or []
    columns = [d[0] for d in description]
    types = [str(d[1]).upper() for d in description]
    if any(_as_text(t) or t == _SINGLE for t in types):
        cursor = con.execute(_json_friendly(bounded, types, columns))
    # fetchmany: whatever the text did to the LIMIT, no more rows than that are ever materialised here.
    rows = cursor.fetchmany(most)
    if any(value in _PYTHON_LIMITS for row in rows for value in row):
        rows = con.execute(_json_friendly(bounded, types, columns, every_date=True)).fetchmany(most)
    if any(_SUFFIXED.search(name) for name in columns):  # after the rows: DESCRIBE ends the pending result
        columns = _written_names(con, bounded, columns)
    return columns, rows


def _written_names(con: duckdb.DuckDBPyConnection, bounded: str, renamed: list[str]) -> list[str]:
    """The columns as the query names them, a repeated name made unique without taking a name the query wrote.

    SELECT * over the query renames repeats as it meets them (a, a, a_1 become a, a_1, a_1_1), so the value under
    a_1 would not be the query's a_1. DESCRIBE binds the query alone, without running it.
    """
    statement = bounded.removeprefix(_WRAP_HEAD).rsplit(_WRAP_TAIL, 1)[0]
    written = [str(row[0]) for row in con.execute(f"DESCRIBE {statement}").fetchall()]
    return distinct_names(written) if len(written) == len(renamed) else renamed


def distinct_names(names: list[str]) -> list[str]:
    """`names` with each repeat suffixed _1, _2 ... by the first suffix no name takes.

    >>> distinct_names(["a", "a", "a_1"]), distinct_names(["x", "x", "x"])
    (['a', 'a_2', 'a_1'], ['x', 'x_1', 'x_2'])
    """
    taken, seen, unique = set(names), set(), []
    for name in names:
        chosen = name
        suffix = 1
        while chosen in seen:
            while f"{name}_{suffix}" in taken:
                suffix += 1
            chosen = f"{name}_{suffix}"
            taken.add(chosen)
        seen.add(chosen)
        unique.append(chosen)
    return unique


def _as_text(type_name: str) -> bool:
    """Whether values of this type come back as DuckDB's text: a date or time Python cannot hold (nanoseconds, a
    month interval, a time zone, one nested in a list or struct), and the types whose Python form changes values or
    drops them: a MAP keyed by anything but text (keys 1 and true, or two values of a UNION, collapse into one; keys
    are spelled as Python spells them), a VARIANT or UNION (whatever they hold), a GEOMETRY (as hex of its bytes).

    >>> [_as_text(t) for t in ("DATE", "TIMESTAMP_NS", "DATE[]", "MAP(INTEGER, VARCHAR)", "MAP(VARCHAR, BIGINT)")]
    [False, True, True, True, False]
    """
    return bool(_ALWAYS_TEXT.search(type_name)) or (
        bool(_TEMPORAL.search(type_name)) and not _PLAIN_DATE.fullmatch(type_name)
    )


def _json_friendly(bounded: str, types: list[str], columns: list[str], every_date: bool = False) -> str:
    """Cast the columns of a date or time type Python cannot hold (or, `every_date`, of any) to DuckDB's text, and a
    FLOAT to the double its shortest text means (Python widens 0.1 as a FLOAT to 0.10000000149011612).

    >>> _json_friendly("SELECT 1", ["TIMESTAMP WITH TIME ZONE", "INTEGER", "FLOAT"], ["t", "x", "f"])
    'SELECT CAST(#1 AS VARCHAR) AS "t", #2 AS "x", CAST(CAST(#3 AS VARCHAR) AS DOUBLE) AS "f" FROM (SELECT 1)'
    """

    def projected(index: int, type_name: str) -> str:
        if _as_text(type_name) or (every_date and bool(_TEMPORAL.search(type_name))):
            return f"CAST(#{index} AS VARCHAR)"
        if type_name == _SINGLE:
            return f"CAST(CAST(#{index} AS VARCHAR) AS DOUBLE)"
        return f"#{index}"

    projection = [
        f"{projected(i, t)} AS {quote_identifier(name)}"
        for i, (t, name) in enumerate(zip(types, columns, strict=True), start=1)
    ]
    return f"SELECT {', '.join(projection)} FROM ({bounded})"
