"""No query runs while a statement is bound: PIVOT and UNPIVOT, and any form DuckDB's parser turns into more than one
statement, are refused on DuckDB's own parse, however they are wrapped, and before anything of them runs."""

from __future__ import annotations

import os

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from search_core.errors import QueryRejected
from search_core.safety.policy import QueryPolicy
from tests.unit.conftest import run

# The third red team's queries, exactly as they returned a host path or passed the text guard.
RED_TEAM = [
    "SELECT translate(column_name, 'abcdefghijklmnopqrstuvwxyz0123456789/-._', "
    "'bcdefghijklmnopqrstuvwxyz0123456789/-._a') AS c FROM (DESCRIBE PIVOT duckdb_databases ON path USING count(*)) "
    "WHERE contains(column_name, '/')",
    "DESCRIBE /* x */ PIVOT duckdb_databases ON path USING count(*)",
    "DESCRIBE PIVOT_WIDER duckdb_databases ON path USING count(*)",
    "SUMMARIZE SELECT * FROM (DESCRIBE PIVOT duckdb_databases ON path USING count(*))",
    "DESCRIBE WITH t AS (SELECT * FROM pg_settings) PIVOT t ON name USING count(*)",
    "SELECT 1 WHERE 'x' IN (SELECT column_name FROM (DESCRIBE PIVOT duckdb_databases ON path USING count(*)))",
    "SELECT * FROM events, LATERAL (SELECT * FROM (DESCRIBE PIVOT pg_settings ON name USING count(*)))",
    "SELECT (SELECT count(*) FROM (DESCRIBE PIVOT information_schema.tables ON table_name USING count(*))) AS n",
]

# PIVOT and UNPIVOT in their statement and clause forms, each over something that must never be read.
_CORES = [
    "PIVOT duckdb_databases ON path USING count(*)",
    "PIVOT_WIDER pg_settings ON name",
    "pivot (SELECT name FROM pg_settings) ON name IN (SELECT name FROM pg_settings) USING count(*)",
    "PIVOT events ON event_name IN ('a') USING count(*)",
    "FROM events PIVOT (count(*) FOR event_name IN ('a'))",
    "UNPIVOT events ON event_name, description INTO NAME k VALUE v",
    "FROM events UNPIVOT (v FOR k IN (event_name, description))",
]
# Where a query may stand inside another: each wrapper takes a query and makes another.
_WRAPPERS = [
    "DESCRIBE {}",
    "DESCRIBE /* c */ {}",
    "SUMMARIZE {}",
    "SELECT * FROM ({})",
    "SELECT * FROM ({}) AS w",
    "WITH w AS ({}) SELECT * FROM w",
    "WITH w AS MATERIALIZED ({}) FROM w",
    "SELECT 1 AS x WHERE 'a' IN (SELECT * FROM ({}) LIMIT 1)",
    "SELECT (SELECT count(*) FROM ({})) AS n",
    "SELECT * FROM events, LATERAL (SELECT * FROM ({}))",
    "SELECT 1 AS x WHERE EXISTS (SELECT * FROM ({}))",
    "SELECT * FROM events UNION ALL BY NAME SELECT * FROM ({})",
    "SELECT * FROM ({}) -- c\n",
]


def _types(con: duckdb.DuckDBPyConnection) -> int:
    """How many types the catalog holds: a PIVOT that ran its distinct-value query created one more."""
    row = con.execute("SELECT count(*) FROM duckdb_types()").fetchone()
    return int(row[0]) if row else 0


def _refused_before_binding(con: duckdb.DuckDBPyConnection, policy: QueryPolicy, sql: str) -> None:
    types_before = _types(con)
    with pytest.raises(QueryRejected, match="PIVOT|複数の文"):
        run(con, policy, sql)
    assert _types(con) == types_before, "a query ran while the statement was bound"


@pytest.mark.parametrize("sql", RED_TEAM)
def test_the_red_teams_describe_pivot_queries_are_refused(
    con: duckdb.DuckDBPyConnection, policy: QueryPolicy, sql: str
) -> None:
    _refused_before_binding(con, policy, sql)


@settings(max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "300")), deadline=None)
@given(core=st.sampled_from(_CORES), wrappers=st.lists(st.sampled_from(_WRAPPERS), max_size=3))
def test_pivot_is_refused_under_any_wrapper(
    con: duckdb.DuckDBPyConnection, policy: QueryPolicy, core: str, wrappers: list[str]
) -> None:
    sql = core
    for wrapper in wrappers:
        sql = wrapper.format(sql)
    _refused_before_binding(con, policy, sql)


def test_a_query_that_only_names_pivot_runs(con: duckdb.DuckDBPyConnection, policy: QueryPolicy) -> None:
    sql = "SELECT 'PIVOT x ON y' AS pivot FROM events WHERE description NOT LIKE '%UNPIVOT%' LIMIT 1"
    assert run(con, policy, sql).rows == [["PIVOT x ON y"]]


@pytest.mark.parametrize("sql", ["DESCRIBE events", "SUMMARIZE events", "SELECT * FROM (DESCRIBE SELECT 1 AS a)"])
def test_describe_and_summarize_of_a_plain_query_still_run(
    con: duckdb.DuckDBPyConnection, policy: QueryPolicy, sql: str
) -> None:
    assert run(con, policy, sql).rows


def test_a_pivot_too_deep_to_walk_is_still_refused(con: duckdb.DuckDBPyConnection, policy: QueryPolicy) -> None:
    deep = "abs(" * 900 + "1" + ")" * 900
    _refused_before_binding(con, policy, f"SELECT {deep} AS n FROM (PIVOT pg_settings ON name USING count(*))")


def test_a_plain_query_too_deep_to_walk_still_runs(con: duckdb.DuckDBPyConnection, policy: QueryPolicy) -> None:
    deep = "abs(" * 900 + "1" + ")" * 900
    assert run(con, policy, f"SELECT {deep} AS n").rows == [[1]]


@pytest.mark.parametrize(
    "sql",
    [
        "SHOW allowed_paths",
        "SELECT unnest(allowed_paths) AS p FROM (SHOW allowed_paths)",
        "SUMMARIZE (SHOW allowed_paths)",
        "SELECT * FROM events WHERE event_name IN (SELECT * FROM (SHOW memory_limit))",
        "SHOW events",
        "SHOW TABLES",
    ],
)
def test_show_of_a_name_is_refused_because_binding_reads_the_setting(
    con: duckdb.DuckDBPyConnection, policy: QueryPolicy, sql: str
) -> None:
    with pytest.raises(QueryRejected, match="SHOW は使えません"):
        run(con, policy, sql)
