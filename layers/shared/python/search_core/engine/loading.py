"""Turn a dataset's CSV into its table and helper columns, in memory or in a DuckDB file; give the connection that
serves it the names and macros of the spec.

A DuckDB file holds the table and nothing else: it is attached read-only as catalog `dataset`, checked to hold
exactly that table, and every name a query may use (`events`, `'events.csv'`, events.csv) and every macro is created
by the worker in its own in-memory catalog. So a file, prepared by a publisher or by the worker, brings data, never
code: no view or macro stored in it is ever on a query's path.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import duckdb

from search_core.engine.quoting import quote_identifier
from search_core.engine.table import TableSpec
from search_core.errors import DataUnavailable
from search_core.scrub import scrub_paths

# Explicit dialect: every field is TEXT as in the file; quotes, commas and newlines inside quoted fields,
# CRLF line ends and a UTF-8 byte order mark are all handled by DuckDB's reader with these options.
_READ_CSV = "read_csv($path, header = true, all_varchar = true, delim = ',', quote = '\"', escape = '\"')"


# The catalog an attached DuckDB file is known by (never its file name, which would show a path's last part).
FILE_CATALOG = "dataset"


def load_dataset(con: duckdb.DuckDBPyConnection, spec: TableSpec, csv_path: Path) -> None:
    """Create `spec.table` from `csv_path` with the spec's names and macros; raise DataUnavailable naming the
    dataset when the file is unusable."""
    _create_table(con, spec, csv_path)
    _install_names(con, spec, stored=None)


def attach_dataset_file(con: duckdb.DuckDBPyConnection, spec: TableSpec, database: Path) -> None:
    """Serve the table of a DuckDB file (read-only) under the spec's names and macros; raise DataUnavailable when
    the file is not exactly that table."""
    try:
        con.execute(f"ATTACH {_literal(str(database))} AS {FILE_CATALOG} (READ_ONLY)")
    except duckdb.Error as error:
        raise DataUnavailable(_describe_load_error(spec, error)) from None
    _check_file_holds_only_the_table(con, spec)
    _install_names(con, spec, stored=f"{FILE_CATALOG}.main.{quote_identifier(spec.table)}")


def write_dataset_file(
    spec: TableSpec,
    csv_path: Path,
    destination: Path,
    connect: Callable[[Path], duckdb.DuckDBPyConnection],
) -> None:
    """Load `csv_path` into a DuckDB file at `destination` holding the table alone, complete or not at all.

    Attached read-only afterwards, the file serves queries as fast as an in-memory table while DuckDB keeps only
    the blocks it reads in memory, and a restarted worker reopens it instead of parsing the CSV again.
    """
    partial = destination.with_name(destination.name + ".part")
    for leftover in (partial, partial.with_name(partial.name + ".wal")):  # of a build that was killed
        leftover.unlink(missing_ok=True)
    con = connect(partial)
    try:
        _create_table(con, spec, csv_path)
        con.execute("CHECKPOINT")
    finally:
        con.close()
    os.replace(partial, destination)


def _create_table(con: duckdb.DuckDBPyConnection, spec: TableSpec, csv_path: Path) -> None:
    try:
        _check_header(con, spec, csv_path)
        con.execute(f"CREATE TABLE {quote_identifier(spec.table)} AS {_select_columns(spec)}", {"path": str(csv_path)})
    except duckdb.Error as error:
        raise DataUnavailable(_describe_load_error(spec, error)) from None


def _check_file_holds_only_the_table(con: duckdb.DuckDBPyConnection, spec: TableSpec) -> None:
    """The attached file must hold the spec's table with its columns in order, and no other table, view, macro,
    sequence, index, type or schema: anything else would be code or data the spec does not know."""
    tables = con.execute(
        "SELECT schema_name, table_name FROM duckdb_tables() WHERE database_name = $catalog", {"catalog": FILE_CATALOG}
    ).fetchall()
    others = con.execute(_OTHER_OBJECTS, {"catalog": FILE_CATALOG}).fetchone()
    columns = [
        row[0]
        for row in con.execute(
            "SELECT column_name FROM duckdb_columns() WHERE database_name = $catalog AND table_name = $table "
            "ORDER BY column_index",
            {"catalog": FILE_CATALOG, "table": spec.table},
        ).fetchall()
    ]
    if tables != [("main", spec.table)] or others != (0,) or columns != [c.name for c in spec.columns]:
        raise DataUnavailable(
            f"データセット「{spec.file_name}」の準備済みファイルが仕様と一致しません（テーブル {spec.table} と"
            "その列だけを持つ DuckDB ファイルではありません）。make upload-data で作り直してください。"
        )


_OTHER_OBJECTS = """
SELECT (SELECT count(*) FROM duckdb_views() WHERE database_name = $catalog AND NOT internal)
     + (SELECT count(*) FROM duckdb_functions() WHERE database_name = $catalog)
     + (SELECT count(*) FROM duckdb_sequences() WHERE database_name = $catalog)
     + (SELECT count(*) FROM duckdb_indexes() WHERE database_name = $catalog)
     + (SELECT count(*) FROM duckdb_types() WHERE database_name = $catalog AND NOT internal)
     + (SELECT count(*) FROM duckdb_schemas() WHERE database_name = $catalog AND NOT internal AND schema_name <> 'main')
"""


def _install_names(con: duckdb.DuckDBPyConnection, spec: TableSpec, stored: str | None) -> None:
    """In the connection's own catalog: the table's aliases and the spec's macros. A table kept in an attached
    file (`stored`) is found by its own name through the search path, after that catalog: a view in between
    would cost every query ~0.2 ms of planning (measured at 10,000 rows)."""
    if stored is not None:
        con.execute(f"SET search_path = 'memory.main,{FILE_CATALOG}.main'")
    _create_aliases(con, spec, stored or f"main.{quote_identifier(spec.table)}")
    for macro in spec.macros:
        con.execute(f"CREATE MACRO memory.main.{macro.signature} AS {macro.body}")


def _literal(text: str) -> str:
    """A string literal, for the one statement that takes no parameters (ATTACH).

    >>> _literal("/tmp/it's.duckdb")
    "'/tmp/it''s.duckdb'"
    """
    return "'" + text.replace("'", "''") + "'"


def _check_header(con: duckdb.DuckDBPyConnection, spec: TableSpec, csv_path: Path) -> None:
    found = [row[0] for row in con.execute(f"DESCRIBE SELECT * FROM {_READ_CSV}", {"path": str(csv_path)}).fetchall()]
    missing = [c.name for c in spec.csv_columns if c.name not in found]
    if missing:
        raise DataUnavailable(
            f"データセット「{spec.file_name}」の列が仕様と一致しません。足りない列: {', '.join(missing)}"
            f"（ファイルの列: {', '.join(found[:20])}）"
        )


def _select_columns(spec: TableSpec) -> str:
    """The CSV's columns in their declared types (a value that is not of its type becomes NULL: the publisher
    reports those before a prepared file is made), then the helper columns computed from them."""
    stored = [
        quote_identifier(c.name)
        if c.is_text
        else f"TRY_CAST({quote_identifier(c.name)} AS {c.type}) AS {quote_identifier(c.name)}"
        for c in spec.csv_columns
    ]
    helpers = [f"{c.expression} AS {quote_identifier(c.name)}" for c in spec.helper_columns]
    return f"SELECT {', '.join(stored + helpers)} FROM {_READ_CSV}"


def _create_aliases(con: duckdb.DuckDBPyConnection, spec: TableSpec, table: str) -> None:
    """'events.csv', "events.csv" and events.csv all name `table`, as the agent prompts in use write them."""
    stem, _, suffix = spec.file_name.partition(".")
    con.execute(f"CREATE VIEW memory.main.{quote_identifier(spec.file_name)} AS SELECT * FROM {table}")
    con.execute(f"CREATE SCHEMA memory.{quote_identifier(stem)}")
    con.execute(f"CREATE VIEW memory.{quote_identifier(stem)}.{quote_identifier(suffix)} AS SELECT * FROM {table}")


def _describe_load_error(spec: TableSpec, error: duckdb.Error) -> str:
    text = str(error)
    if "invalid unicode" in text.lower():
        return f"データセット「{spec.file_name}」は UTF-8 のテキストではないため読み込めません。"
    first_line = scrub_paths(text.splitlines()[0]) if text else type(error).__name__
    return f"データセット「{spec.file_name}」を読み込めません: {first_line[:300]}"
