"""Layer 1: the guard admits one read-only query over our tables and explains every refusal in Japanese."""

from __future__ import annotations

import duckdb
import pytest

from search_core.errors import QueryRejected
from search_core.sql.guard import check_query

TABLES = frozenset({"events", "events.csv"})


@pytest.fixture(scope="module")
def con() -> duckdb.DuckDBPyConnection:
    return duckdb.connect()


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
        "SELECT u.x FROM events, unnest([1, 2]) AS u(x)",
        "SELECT * FROM range(3)",
        "DESCRIBE events",
        "SELECT 1;",
        "SELECT 1 -- trailing comment",
        "VALUES (1), (2)",
    ],
)
def test_read_only_queries_over_our_tables_pass(con: duckdb.DuckDBPyConnection, sql: str) -> None:
    assert check_query(con, sql, TABLES)


def test_returns_the_statement_without_its_semicolon(con: duckdb.DuckDBPyConnection) -> None:
    assert check_query(con, "SELECT 1 ;  ", TABLES) == "SELECT 1"


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
def test_anything_but_one_select_is_refused(con: duckdb.DuckDBPyConnection, sql: str, expected: str) -> None:
    with pytest.raises(QueryRejected, match=expected) as refused:
        check_query(con, sql, TABLES)
    assert "SELECT" in refused.value.message or "空" in refused.value.message or "構文" in refused.value.message


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT * FROM read_text('/proc/self/environ')",
        "SELECT * FROM read_csv('/etc/passwd')",
        "SELECT * FROM read_csv_auto('s3://bucket/key.csv')",
        "SELECT * FROM read_parquet('https://example.com/x.parquet')",
        "SELECT * FROM read_json('/var/task/app.py')",
        "SELECT * FROM read_blob('/proc/self/environ')",
        "SELECT * FROM glob('/tmp/*')",
        "SELECT * FROM duckdb_settings()",
        "SELECT * FROM duckdb_secrets()",
        "SELECT * FROM query('DROP TABLE events')",
        "SELECT * FROM system.main.read_text('/etc/passwd')",
        "WITH x AS (SELECT * FROM read_text('/etc/passwd')) SELECT * FROM x",
        "SELECT * FROM events WHERE event_name IN (SELECT content FROM read_text('/etc/hosts'))",
        "SELECT * FROM events UNION ALL SELECT * FROM read_csv('/etc/passwd')",
        "SELECT * FROM events, LATERAL (SELECT * FROM read_text('/etc/passwd'))",
    ],
)
def test_file_network_and_catalog_readers_are_refused(con: duckdb.DuckDBPyConnection, sql: str) -> None:
    with pytest.raises(QueryRejected, match="テーブル関数 .* は使えません"):
        check_query(con, sql, TABLES)


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT * FROM '/etc/passwd'",
        "SELECT * FROM 'https://example.com/data.csv'",
        "SELECT * FROM stores",
        "SELECT * FROM information_schema.tables",
        "SELECT * FROM main.events",
        "SELECT * FROM duckdb_tables",
    ],
)
def test_other_tables_and_paths_are_refused(con: duckdb.DuckDBPyConnection, sql: str) -> None:
    with pytest.raises(QueryRejected, match="使えるテーブル: events、events.csv"):
        check_query(con, sql, TABLES)


@pytest.mark.parametrize(
    "sql",
    ["SELECT current_setting('temp_directory')", "SELECT getenv('AWS_SECRET_ACCESS_KEY')", "SELECT main.lower('A')"],
)
def test_functions_that_reveal_the_host_are_refused(con: duckdb.DuckDBPyConnection, sql: str) -> None:
    with pytest.raises(QueryRejected, match="関数 .* は使えません"):
        check_query(con, sql, TABLES)


def test_show_is_refused_with_a_pointer_to_describe(con: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(QueryRejected, match="DESCRIBE"):
        check_query(con, "SHOW TABLES", TABLES)


def test_overlong_sql_is_refused_before_parsing(con: duckdb.DuckDBPyConnection) -> None:
    with pytest.raises(QueryRejected, match="長すぎます"):
        check_query(con, "SELECT 1 " + " " * 25_000, TABLES)


def test_deeply_nested_sql_is_refused_not_crashed(con: duckdb.DuckDBPyConnection) -> None:
    sql = "SELECT " + "(" * 3000 + "1" + ")" * 3000
    with pytest.raises(QueryRejected):
        check_query(con, sql, TABLES)
