"""What a query may touch, read once from the connection it will run on.

The plan check compares scans with the real, qualified table names (`memory.main.events`, or the DuckDB file's own
catalog), so no name a query invents (a CTE, an alias, a quoted path) can stand in for them. The text check refuses
calls of functions that read the host, change settings or run SQL given as text: the plan cannot see those, as
DuckDB evaluates constant scalar calls while planning and replaces `query('...')` by the plan of its text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import duckdb

from search_core.engine.quoting import quote_identifier
from search_core.errors import QueryRejected
from search_core.safety.plan import tables_scanned

# Table functions that only compute from their arguments.
ALLOWED_TABLE_FUNCTIONS = frozenset({"unnest", "range", "generate_series", "json_each", "json_tree"})
# Scalar functions that read settings or the host, write logs, stall, or plan/run SQL from a string.
DENIED_SCALAR_FUNCTIONS = frozenset(
    {
        "current_setting",
        "getenv",
        "getvariable",
        "write_log",
        "sleep_ms",
        # Session state one caller would leave for the next on the same worker.
        "setseed",
        # Counters every caller of a worker moves (its own queries and the hints' count them too): they would tell
        # one caller how many queries others ran.
        "current_query_id",
        "current_transaction_id",
        "txid_current",
        "json_serialize_plan",
        "json_execute_serialized_sql",
        "query",
        "query_table",
    }
)

_CALLABLE_TYPES = ("scalar", "aggregate", "macro", "window")
_TABLE_TYPES = ("table", "table_macro", "pragma")
# A name called in a macro's definition (`main.sleep_ms(`): each definition is read once, not searched name by name.
_CALL = re.compile(r"(\w+)\s*\(")


@dataclass(frozen=True)
class QueryPolicy:
    """The tables a plan may scan and the functions a text may call.

    >>> con = duckdb.connect()
    >>> _ = con.execute("CREATE TABLE events AS SELECT 1 AS x")
    >>> policy = QueryPolicy.for_connection(con, "events", frozenset({"events", "events.csv"}))
    >>> sorted(policy.scannable_tables), "read_text" in policy.denied_calls, "lower" in policy.denied_calls
    (['memory.main.events'], True, False)
    """

    scannable_tables: frozenset[str]
    table_names: frozenset[str]
    denied_calls: frozenset[str]
    table_functions: frozenset[str] = ALLOWED_TABLE_FUNCTIONS
    denied_table_functions: frozenset[str] = frozenset()
    # The texts that passed the text and parse checks under this policy, with the row cap, mapped to the bounded
    # statement each became: those checks read nothing but the text, so a text sent again skips them (its plan is
    # checked on every run; worker/execute.py).
    checked_texts: dict[tuple[str, int], str] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def for_connection(cls, con: duckdb.DuckDBPyConnection, table: str, table_names: frozenset[str]) -> QueryPolicy:
        """The policy for queries over `table` on `con`: its scan named exactly as the plans of `con` name it."""
        denied_tables, denied_calls = _denied_calls(con)
        return cls(
            scannable_tables=tables_scanned(con, f"SELECT * FROM main.{quote_identifier(table)}"),
            table_names=table_names,
            denied_calls=denied_calls,
            denied_table_functions=denied_tables,
        )

    def refusal(self, function: str, table_function: bool = False) -> QueryRejected:
        """The refusal of a call of `function`, telling the agent what it may use instead."""
        name = function.lower()
        if table_function or name in self.denied_table_functions:
            return QueryRejected(
                f"テーブル関数 {name}() は使えません（ファイル・ネットワーク・設定・カタログの読み取りは禁止です）。"
                f"使えるテーブル: {self.tables_text}。使えるテーブル関数: {', '.join(sorted(self.table_functions))}。"
                f"列の一覧は DESCRIBE {min(self.table_names)} で確認できます。"
            )
        return QueryRejected(
            f"関数 {name}() は使えません（設定・カタログ・環境を読む関数、SQL を文字列で実行する関数は禁止です）。"
        )

    @property
    def tables_text(self) -> str:
        return "、".join(sorted(self.table_names))

    @property
    def tables_hint(self) -> str:
        return f"使えるテーブル: {self.tables_text}（WITH で定義した名前も可）。"


def _denied_calls(con: duckdb.DuckDBPyConnection) -> tuple[frozenset[str], frozenset[str]]:
    """The denied table functions: all but the pure ones (unless the name is also an ordinary function, as
    `histogram` is); and every denied call: those, the denied scalar functions, and the built-in macros that call
    any of them (`pg_sleep` calls `sleep_ms`), directly or through other macros."""
    kinds: dict[str, set[str]] = {}
    calls: dict[str, set[str]] = {}  # macro → what its definitions call (every overload's)
    for name, kind, definition in con.execute(
        "SELECT function_name, function_type, macro_definition FROM duckdb_functions()"
    ).fetchall():
        kinds.setdefault(name.lower(), set()).add(kind)
        if kind == "macro" and definition:
            calls.setdefault(name.lower(), set()).update(c.casefold() for c in _CALL.findall(definition))
    tables = {
        name
        for name, found in kinds.items()
        if found & set(_TABLE_TYPES) and not found & set(_CALLABLE_TYPES) and name not in ALLOWED_TABLE_FUNCTIONS
    }
    denied = set(tables | DENIED_SCALAR_FUNCTIONS)
    # To a fixed point: a macro that calls a denied macro is denied too.
    while more := {name for name, called in calls.items() if name not in denied and called & denied}:
        denied |= more
    return frozenset(tables), frozenset(denied)
