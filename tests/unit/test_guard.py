"""Layer 1: the text check and the plan check admit one read-only query over our table, and explain every refusal
in Japanese. Run on the locked sandbox connection the worker uses, through `run_query`."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from search_core.errors import QueryFailed, QueryRejected, SearchError
from search_core.safety.policy import QueryPolicy
from search_core.worker.result import QueryResult
from tests.unit.conftest import run


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT * FROM events",
        "select event_name from EVENTS",
        "FROM events SELECT event_name",
        "WITH recent AS (SELECT * FROM events) SELECT count(*) FROM recent",
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3) SELECT * FROM n",
        "SELECT * FROM 'events.csv'",
        'SELECT * FROM "events.csv"',
        "SELECT * FROM events.csv",
        "SELECT event_name FROM events WHERE description LIKE '%UPDATE%' OR description LIKE '%DROP TABLE%'",
        "SELECT 'read_text(''/etc/passwd'')' AS harmless_text",
        "SELECT 'current_setting(' AS harmless_text -- current_setting(",
        "SELECT u.x FROM events, unnest([1, 2]) AS u(x)",
        "SELECT * FROM range(3)",
        "SELECT * FROM generate_series(1, 3)",
        "SELECT * FROM json_each('[1, 2]')",
        "SELECT j.value FROM events, json_each(events.target_audience) AS j",
        "DESCRIBE events",
        "SUMMARIZE events",
        "SELECT 1;",
        "SELECT 1 -- trailing comment",
        "VALUES (1), (2)",
        "SELECT location, count(*) FROM events GROUP BY ALL ORDER BY 2 DESC",
        "SELECT event_name, row_number() OVER (PARTITION BY location ORDER BY start_date) FROM events",
        "SELECT * FROM events a JOIN events b USING (event_name)",
        "SELECT * FROM events a, events b WHERE a.start_date < b.start_date",
        "SELECT event_name FROM events WHERE event_name IN (SELECT event_name FROM events WHERE cost = '無料')",
        "SELECT 1 WHERE EXISTS (SELECT 1 FROM events)",
        "SELECT * FROM events USING SAMPLE 3 ROWS",
        "SELECT DISTINCT ON (location) location, event_name FROM events",
        "SELECT * FROM events UNION SELECT * FROM events EXCEPT SELECT * FROM events",
        "SELECT histogram(location) FROM events",
        "SELECT count(*) FROM events WHERE jst_today() BETWEEN start_date AND end_date",
    ],
)
def test_read_only_queries_over_our_table_pass(con: duckdb.DuckDBPyConnection, policy: QueryPolicy, sql: str) -> None:
    assert isinstance(run(con, policy, sql), QueryResult)


@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        ("INSERT INTO events VALUES (1)", "INSERT 文は実行できません"),
        ("UPDATE events SET event_name = 'x'", "UPDATE 文は実行できません"),
        ("DELETE FROM events", "DELETE 文は実行できません"),
        ("DROP TABLE events", "DROP 文は実行できません"),
        ("CREATE TABLE x AS SELECT 1", "CREATE 文は実行できません"),
        ("COPY events TO '/tmp/x.csv'", "COPY 文は実行できません"),
        ("ATTACH '/tmp/x.db'", "ATTACH 文は実行できません"),
        ("SET enable_external_access = true", "SET 文は実行できません"),
        ("PRAGMA database_list", "PRAGMA 文は実行できません"),
        ("INSTALL httpfs", "文は実行できません"),
        ("LOAD httpfs", "文は実行できません"),
        ("EXPLAIN SELECT 1", "EXPLAIN 文は実行できません"),
        ("CALL pragma_version()", "CALL 文は実行できません"),
        ("EXPORT DATABASE '/tmp/x'", "文は実行できません"),
        ("SELECT 1; SELECT 2", "1 つだけ"),
        ("SELECT 1;\n-- hidden\nDROP TABLE events", "1 つだけ"),
        ("", "空です"),
        ("   \n\t", "空です"),
        ("SELEC 1", "構文エラー"),
    ],
)
def test_anything_but_one_select_is_refused(
    con: duckdb.DuckDBPyConnection, policy: QueryPolicy, sql: str, expected: str
) -> None:
    with pytest.raises(QueryRejected, match=expected) as refused:
        run(con, policy, sql)
    assert "SELECT" in refused.value.message or "空" in refused.value.message or "構文" in refused.value.message


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT * FROM read_text('/proc/self/environ')",
        "SELECT * FROM read_csv('/etc/passwd')",
        "SELECT * FROM read_csv_auto('s3://bucket/key.csv')",
        "SELECT * FROM read_parquet('https://example.com/x.parquet')",
        "SELECT * FROM read_blob('/proc/self/environ')",
        "SELECT * FROM glob('/tmp/*')",
        "SELECT * FROM duckdb_settings()",
        "SELECT * FROM query('DROP TABLE events')",
        "SELECT * FROM system.main.read_text('/etc/passwd')",
        "SELECT * FROM \"read_text\"('/etc/passwd')",
        "SELECT current_setting('temp_directory')",
        "SELECT 'temp_directory'.current_setting()",
        "SELECT getvariable('x')",
        "SELECT json_serialize_plan('SELECT 1')",
        "SELECT pg_get_viewdef(1)",
        "SELECT format_type(1, 1)",
        "SELECT get_block_size('memory')",
        "SELECT pg_sleep(10)",
        "SELECT write_log('x')",
        "SELECT current_setting\u200b('memory_limit')",
        "SELECT system.main.current_setting\ufeff('TimeZone')",
        "FROM query\u2060('SELECT 42 AS x')",
        "SELECT sleep_ms\u200b(5000)",
    ],
)
def test_calls_that_read_the_host_or_run_sql_text_are_refused_by_name(
    con: duckdb.DuckDBPyConnection, policy: QueryPolicy, sql: str
) -> None:
    with pytest.raises(QueryRejected, match="関数 .* は使えません"):
        run(con, policy, sql)


@pytest.mark.parametrize(
    "sql",
    [
        "WITH pg_settings AS (SELECT name, setting FROM pg_settings) SELECT * FROM pg_settings",
        "WITH events AS (SELECT * FROM duckdb_tables) SELECT * FROM events",
        "SELECT * FROM events WHERE EXISTS (WITH sqlite_master AS (FROM sqlite_master) FROM sqlite_master)",
        "SELECT * FROM information_schema.tables",
        "SELECT * FROM duckdb_tables",
        "SELECT * FROM pg_catalog.pg_proc",
    ],
)
def test_catalog_views_are_refused_whatever_a_cte_calls_them(
    con: duckdb.DuckDBPyConnection, policy: QueryPolicy, sql: str
) -> None:
    with pytest.raises(QueryRejected, match="テーブル関数 duckdb_.*は使えません.*DESCRIBE"):
        run(con, policy, sql)


@pytest.mark.parametrize(
    "sql",
    ["SELECT * FROM '/etc/passwd'", "SELECT * FROM 'https://example.com/data.csv'", "SELECT * FROM stores"],
)
def test_other_tables_and_paths_are_not_found(con: duckdb.DuckDBPyConnection, policy: QueryPolicy, sql: str) -> None:
    with pytest.raises((QueryRejected, QueryFailed), match="はありません。使えるテーブル: events|読めません"):
        run(con, policy, sql)


def test_a_data_modifying_cte_is_refused_and_changes_nothing(
    con: duckdb.DuckDBPyConnection, policy: QueryPolicy
) -> None:
    before = run(con, policy, "SELECT count(*) FROM events").rows
    with pytest.raises(SearchError):
        run(con, policy, "WITH x AS (DELETE FROM events RETURNING *) SELECT count(*) FROM x")
    assert run(con, policy, "SELECT count(*) FROM events").rows == before


def test_a_query_cannot_close_the_parenthesis_it_is_wrapped_in(
    con: duckdb.DuckDBPyConnection, policy: QueryPolicy
) -> None:
    with pytest.raises(QueryRejected, match="括弧"):
        run(con, policy, "SELECT * FROM range(100)) UNION ALL (SELECT 1")


@pytest.mark.parametrize(
    "sql",
    [
        "PIVOT events ON location USING count(*)",
        "SELECT zz FROM (PIVOT\u200b (SELECT 'a' AS p) ON p USING count(*))",
        "FROM events PIVOT (count(*) FOR location IN ('x'))",
        "UNPIVOT (SELECT 1 AS a, 2 AS b) ON a, b INTO NAME k VALUE v",
    ],
)
def test_pivot_is_refused_because_it_runs_a_query_while_planned(
    con: duckdb.DuckDBPyConnection, policy: QueryPolicy, sql: str
) -> None:
    with pytest.raises(QueryRejected, match="PIVOT"):
        run(con, policy, sql)


def test_pivot_as_a_name_is_not_the_statement(con: duckdb.DuckDBPyConnection, policy: QueryPolicy) -> None:
    assert run(con, policy, "SELECT 1 AS pivot").rows == [[1]]


def test_invisible_characters_in_search_terms_do_not_matter(
    con: duckdb.DuckDBPyConnection, policy: QueryPolicy
) -> None:
    plain = run(con, policy, "SELECT count(*) FROM events WHERE event_name LIKE '%マルシェ%'").rows
    assert run(con, policy, "SELECT count(*) FROM events WHERE event_name LIKE '%マルシェ%'\u200b").rows == plain


def test_the_file_system_is_closed_after_loading(
    con: duckdb.DuckDBPyConnection, policy: QueryPolicy, tmp_path: Path
) -> None:
    secret = tmp_path / "secret.csv"
    secret.write_text("s\ncanary\n", encoding="utf-8")
    with pytest.raises(duckdb.PermissionException):
        con.execute(f"SELECT * FROM read_csv('{secret}')").fetchall()


def test_overlong_sql_is_refused_before_parsing(con: duckdb.DuckDBPyConnection, policy: QueryPolicy) -> None:
    with pytest.raises(QueryRejected, match="長すぎます"):
        run(con, policy, "SELECT 1 " + " " * 25_000)


def test_deeply_nested_sql_is_refused_not_crashed(con: duckdb.DuckDBPyConnection, policy: QueryPolicy) -> None:
    sql = "SELECT " + "(" * 3000 + "1" + ")" * 3000
    with pytest.raises(SearchError):
        run(con, policy, sql)


def test_a_macro_that_reaches_a_denied_call_through_other_macros_is_denied() -> None:
    con = duckdb.connect()
    con.execute("CREATE TABLE events AS SELECT 1 AS x")
    con.execute("CREATE MACRO inner_path() AS current_setting('temp_directory')")
    con.execute("CREATE MACRO middle_path() AS lower(inner_path())")
    con.execute("CREATE MACRO outer_path() AS upper(middle_path())")
    denied = QueryPolicy.for_connection(con, "events", frozenset({"events"})).denied_calls
    assert {"inner_path", "middle_path", "outer_path"} <= denied and "lower" not in denied


def test_a_macro_is_denied_when_any_of_its_overloads_reaches_a_denied_call() -> None:
    con = duckdb.connect()
    con.execute("CREATE TABLE events AS SELECT 1 AS x")
    con.execute("CREATE MACRO two_ways(a) AS current_setting(a), (a, b) AS a + b")
    assert "two_ways" in QueryPolicy.for_connection(con, "events", frozenset({"events"})).denied_calls


@pytest.mark.parametrize(
    "condition",
    [
        "txid_current() % 3 = 0",
        "txid_current() % 3 = 1",
        "txid_current() % 3 = 2",
        "epoch_us(now()) % 2 = 0",
        "age(TIMESTAMP '2000-01-01') < INTERVAL 1 DAY OR epoch_us(now()) % 2 = 1",
    ],
)
def test_the_plan_checked_is_the_plan_run_whatever_duckdb_folds_into_it(
    con: duckdb.DuckDBPyConnection, policy: QueryPolicy, condition: str
) -> None:
    # DuckDB folds what is fixed for a transaction (the transaction id, the clock) while planning: checked in one
    # transaction and run in the next, such a filter pruned the scan of the settings for the check and kept it for
    # the run. Sent again and again, the same text must never return a setting.
    for _ in range(6):
        try:
            rows = run(con, policy, f"SELECT name, setting FROM pg_catalog.pg_settings WHERE {condition}").rows
        except QueryRejected:
            continue
        assert rows == []


def test_a_text_sent_again_is_not_checked_again_but_its_plan_is(
    con: duckdb.DuckDBPyConnection, policy: QueryPolicy
) -> None:
    sql = "SELECT count(*) FROM events WHERE event_name LIKE '%マルシェ%'"
    first = run(con, policy, sql).rows
    assert any(text == sql for text, _ in policy.checked_texts)
    assert run(con, policy, sql).rows == first
