"""Layer 1 of the SQL safety, on the plan: authorise what DuckDB will actually run, not the names in the text.

`EXPLAIN (FORMAT JSON)` of the bounded query shows every scan by what it really reads — `memory.main.events`, or the
function `DUCKDB_SETTINGS` behind a view or a CTE called `pg_settings` — and every operator. Each must be allowed:
scans of our table, the pure table functions, and read-only operators; anything that writes, or any other scan,
anywhere in the tree, refuses the query before it runs.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import duckdb

from search_core.errors import QueryRejected

if TYPE_CHECKING:
    from search_core.safety.policy import QueryPolicy

# Scans that name the table they read in `extra_info["Table"]`.
_TABLE_SCANS = frozenset({"SEQ_SCAN", "TABLE_SCAN"})
# Operators that only read, compute, join, sort, group or limit. Table functions appear under their own name.
READ_ONLY_OPERATORS = frozenset(
    {
        "PROJECTION", "FILTER", "ORDER_BY", "TOP_N", "LIMIT", "STREAMING_LIMIT", "LIMIT_PERCENT", "LIMITED_DISTINCT",
        "HASH_GROUP_BY", "PERFECT_HASH_GROUP_BY", "PARTITIONED_AGGREGATE", "UNGROUPED_AGGREGATE", "WINDOW",
        "STREAMING_WINDOW", "UNNEST", "HASH_JOIN", "NESTED_LOOP_JOIN", "BLOCKWISE_NL_JOIN", "PIECEWISE_MERGE_JOIN",
        "CROSS_PRODUCT", "IE_JOIN", "ASOF_JOIN", "POSITIONAL_JOIN", "LEFT_DELIM_JOIN", "RIGHT_DELIM_JOIN",
        "DELIM_SCAN", "POSITIONAL_SCAN", "UNION", "CTE", "CTE_SCAN", "REC_CTE", "REC_CTE_SCAN", "REC_KEY_CTE",
        "RECURRING_CTE_SCAN", "DUMMY_SCAN", "EMPTY_RESULT", "COLUMN_DATA_SCAN", "CHUNK_SCAN", "EXPRESSION_SCAN",
        "RESERVOIR_SAMPLE", "STREAMING_SAMPLE", "UNPIVOT", "RESULT_COLLECTOR",
    }
)  # fmt: skip

JsonNode = dict[str, Any]


def authorize_plan(con: duckdb.DuckDBPyConnection, bounded: str, policy: QueryPolicy) -> None:
    """Plan `bounded` (binding and optimising it, running nothing) and refuse it unless every node is allowed.

    Planning errors (unknown column, syntax) propagate as DuckDB raised them.
    """
    for node in plan_nodes(con, bounded):
        _authorize(node, policy)


def tables_scanned(con: duckdb.DuckDBPyConnection, sql: str) -> frozenset[str]:
    """The tables `sql` scans, named as its plan names them (quoted where DuckDB quotes: `"events-v1".main.events`)."""
    return frozenset(str(n["extra_info"]["Table"]) for n in plan_nodes(con, sql) if n.get("name") in _TABLE_SCANS)


def plan_nodes(con: duckdb.DuckDBPyConnection, sql: str) -> Iterator[JsonNode]:
    rows = con.execute("EXPLAIN (FORMAT JSON) " + sql).fetchall()
    try:
        plan: list[JsonNode] = json.loads(rows[0][1])
    except RecursionError:
        raise QueryRejected("SQL の入れ子が深すぎます。もっと単純な形に書き直してください。") from None
    stack = list(plan)
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.get("children", []))


def _authorize(node: JsonNode, policy: QueryPolicy) -> None:
    name = str(node.get("name", ""))
    info = node.get("extra_info") or {}
    if name in _TABLE_SCANS:
        if info.get("Table") not in policy.scannable_tables:
            raise QueryRejected(f"そのテーブルは使えません。{policy.tables_hint}")
        return
    if name in READ_ONLY_OPERATORS or name.lower() in policy.table_functions:
        return
    if name == "INOUT_FUNCTION":  # a table function fed by rows (FROM events, json_each(events.tags)): named inside
        function = str(info.get("Name", ""))
        if function.lower() in policy.table_functions:
            return
        raise policy.refusal(function, table_function=True)
    if "Function" in info:
        raise policy.refusal(name, table_function=True)
    raise QueryRejected(
        f"この問い合わせは実行できません（{name} は読み取り専用の SELECT で使える操作ではありません）。"
    )
