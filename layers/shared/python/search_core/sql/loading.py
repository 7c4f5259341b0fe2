"""Turn a dataset's CSV into its table, helper columns, name aliases and macros on a DuckDB connection or file."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import duckdb

from search_core.errors import DataUnavailable
from search_core.scrub import scrub_paths
from search_core.sql.quoting import quote_identifier
from search_core.sql.table import TableSpec

# Explicit dialect: every field is TEXT as in the file; quotes, commas and newlines inside quoted fields,
# CRLF line ends and a UTF-8 byte order mark are all handled by DuckDB's reader with these options.
_READ_CSV = "read_csv($path, header = true, all_varchar = true, delim = ',', quote = '\"', escape = '\"')"


def load_dataset(con: duckdb.DuckDBPyConnection, spec: TableSpec, csv_path: Path) -> None:
    """Create `spec.table` from `csv_path`; raise DataUnavailable naming the dataset when the file is unusable."""
    try:
        _check_header(con, spec, csv_path)
        con.execute(f"CREATE TABLE {quote_identifier(spec.table)} AS {_select_columns(spec)}", {"path": str(csv_path)})
    except duckdb.Error as error:
        raise DataUnavailable(_describe_load_error(spec, error)) from None
    _create_aliases(con, spec)
    for macro in spec.macros:
        con.execute(f"CREATE MACRO {macro.signature} AS {macro.body}")


def write_dataset_file(
    spec: TableSpec,
    csv_path: Path,
    destination: Path,
    connect: Callable[[Path], duckdb.DuckDBPyConnection],
) -> None:
    """Load `csv_path` into a DuckDB file at `destination` (table, aliases and macros), complete or not at all.

    Opened read-only afterwards, the file serves queries as fast as an in-memory table while DuckDB keeps only
    the blocks it reads in memory, and a restarted worker reopens it instead of parsing the CSV again. DuckDB
    names the file's catalog after its stem, so the stem must differ from the table's name (`events-<version>`).
    """
    partial = destination.with_name(destination.name + ".part")
    for leftover in (partial, partial.with_name(partial.name + ".wal")):  # of a build that was killed
        leftover.unlink(missing_ok=True)
    con = connect(partial)
    try:
        load_dataset(con, spec, csv_path)
        con.execute("CHECKPOINT")
    finally:
        con.close()
    os.replace(partial, destination)


def _check_header(con: duckdb.DuckDBPyConnection, spec: TableSpec, csv_path: Path) -> None:
    found = [row[0] for row in con.execute(f"DESCRIBE SELECT * FROM {_READ_CSV}", {"path": str(csv_path)}).fetchall()]
    missing = [c.name for c in spec.csv_columns if c.name not in found]
    if missing:
        raise DataUnavailable(
            f"データセット「{spec.file_name}」の列が仕様と一致しません。足りない列: {', '.join(missing)}"
            f"（ファイルの列: {', '.join(found[:20])}）"
        )


def _select_columns(spec: TableSpec) -> str:
    stored = [quote_identifier(c.name) for c in spec.csv_columns]
    helpers = [f"{c.expression} AS {quote_identifier(c.name)}" for c in spec.helper_columns]
    return f"SELECT {', '.join(stored + helpers)} FROM {_READ_CSV}"


def _create_aliases(con: duckdb.DuckDBPyConnection, spec: TableSpec) -> None:
    """'events.csv', "events.csv" and events.csv all name the table, as the agent prompts in use write them."""
    table = quote_identifier(spec.table)
    stem, _, suffix = spec.file_name.partition(".")
    con.execute(f"CREATE VIEW {quote_identifier(spec.file_name)} AS SELECT * FROM {table}")
    con.execute(f"CREATE SCHEMA {quote_identifier(stem)}")
    con.execute(f"CREATE VIEW {quote_identifier(stem)}.{quote_identifier(suffix)} AS SELECT * FROM main.{table}")


def _describe_load_error(spec: TableSpec, error: duckdb.Error) -> str:
    text = str(error)
    if "invalid unicode" in text.lower():
        return f"データセット「{spec.file_name}」は UTF-8 のテキストではないため読み込めません。"
    first_line = scrub_paths(text.splitlines()[0]) if text else type(error).__name__
    return f"データセット「{spec.file_name}」を読み込めません: {first_line[:300]}"
