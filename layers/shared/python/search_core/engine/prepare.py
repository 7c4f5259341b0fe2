"""Prepare a table for serving: check its CSV against the spec, then write the DuckDB file the function serves from.

A data pipeline runs this once per version of the data (`make upload-data`, or
`python -m search_core.kinds.sql_table.publish`); the function then downloads a file it opens in milliseconds instead
of parsing the CSV on every cold start.
"""

from __future__ import annotations

import csv
import time
from dataclasses import dataclass, field
from pathlib import Path

import duckdb

from search_core.engine.loading import write_dataset_file
from search_core.engine.quoting import quote_identifier
from search_core.engine.table import Column, TableSpec

# Lines listed per kind of problem (the count says how many there are in all), and the characters of its first value.
_LINES_SHOWN = 5
_EXAMPLE_CHARS = 60


@dataclass(frozen=True)
class Problem:
    """One kind of problem in a CSV: where (`column`, the first `lines`), how often, and what."""

    message: str
    column: str | None = None
    lines: tuple[int, ...] = ()
    count: int = 1
    example: str | None = None

    def __str__(self) -> str:
        where = f"列 {self.column}: " if self.column else ""
        more = " …" if self.count > len(self.lines) else ""
        lines = f"（{self.count} 件、行 {', '.join(map(str, self.lines))}{more}）" if self.lines else ""
        shown = (self.example or "")[:_EXAMPLE_CHARS].replace("\r", "\\r").replace("\n", "\\n")
        example = f" 例: 「{shown}」" if self.example is not None else ""
        return f"{where}{self.message}{lines}{example}"


@dataclass
class Validation:
    rows: int = 0
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


class InvalidData(Exception):
    """The CSV does not match its spec; `validation` lists every problem found."""

    def __init__(self, file_name: str, validation: Validation) -> None:
        self.validation = validation
        listed = "\n".join(f"- {problem}" for problem in validation.problems)
        super().__init__(f"{file_name} は仕様と一致しません（行はヘッダーを 1 とするレコードの番号）:\n{listed}")


@dataclass(frozen=True)
class Prepared:
    rows: int
    bytes: int
    seconds: float


def validate_csv(table: TableSpec, csv_path: Path) -> Validation:
    """Every problem that would make the table wrong: missing columns, rows the CSV reader rejects (unterminated
    quotes, too many or too few fields, invalid UTF-8) and values that are not of their column's type (JSON, DATE,
    numbers). Rows are numbered as records, the header being 1 (a quoted value spanning lines counts once).

    """
    header = _header(csv_path)
    missing = [c.name for c in table.csv_columns if c.name not in header]
    if missing:
        return Validation(
            0, [Problem(f"ヘッダーに列がありません: {', '.join(missing)}（ファイルの列: {', '.join(header)}）")]
        )
    con = duckdb.connect()
    try:
        rows = _read_lines(con, header, csv_path)
        return Validation(rows, [*_rejected_rows(con), *_mistyped_values(con, table)])
    finally:
        con.close()


def prepare_table(table: TableSpec, csv_path: Path, destination: Path) -> Prepared:
    """Validate `csv_path` (raising InvalidData) and write `destination`, the DuckDB file the worker serves."""
    started = time.perf_counter()
    validation = validate_csv(table, csv_path)
    if not validation.ok:
        raise InvalidData(table.file_name, validation)
    destination.unlink(missing_ok=True)
    write_dataset_file(table, csv_path, destination, lambda path: duckdb.connect(str(path)))
    return Prepared(validation.rows, destination.stat().st_size, time.perf_counter() - started)


def _header(csv_path: Path) -> list[str]:
    with csv_path.open(encoding="utf-8-sig", newline="", errors="replace") as file:
        return next(csv.reader(file), [])


def _read_lines(con: duckdb.DuckDBPyConnection, header: list[str], csv_path: Path) -> int:
    """Load every row the reader accepts into `lines`, numbered in order; the rest go to `reject_errors`.

    The reader first detects the line ends (a file may end its records in CRLF and hold bare LFs inside quoted
    values); when a file is too broken for that, it reads with the header's columns as they are.
    """
    options = "header = true, delim = ',', quote = '\"', escape = '\"', store_rejects = true, ignore_errors = true"
    read = "CREATE TABLE lines AS SELECT row_number() OVER () AS line_index, * FROM read_csv($path, {})"
    try:
        con.execute(read.format(f"{options}, all_varchar = true"), {"path": str(csv_path)})
    except duckdb.InvalidInputException:
        columns = {name: "VARCHAR" for name in header}
        con.execute(read.format(f"{options}, auto_detect = false, columns = $columns"),
                    {"path": str(csv_path), "columns": columns})  # fmt: skip
    count = con.execute("SELECT count(*) FROM lines").fetchone()
    return int(count[0]) if count else 0


def _rejected_rows(con: duckdb.DuckDBPyConnection) -> list[Problem]:
    found = con.execute(
        "SELECT error_type, count(DISTINCT line), list(DISTINCT line ORDER BY line)[1:$shown], "
        "arg_min(csv_line, line) FROM reject_errors GROUP BY error_type ORDER BY min(line)",
        {"shown": _LINES_SHOWN},
    ).fetchall()
    return [Problem(f"CSV として読めない行（{kind}）", None, tuple(lines), n, raw) for kind, n, lines, raw in found]


def _mistyped_values(con: duckdb.DuckDBPyConnection, table: TableSpec) -> list[Problem]:
    problems = []
    for column in table.csv_columns:
        if column.is_text and not column.is_json:
            continue
        name = quote_identifier(column.name)
        # A row's record number is its index plus one (the header) while no row before it was rejected.
        count, lines, example = con.execute(
            f"SELECT count(*), list(line_index + 1 ORDER BY line_index)[1:$shown], arg_min({name}, line_index) "
            f"FROM lines WHERE {_invalid_value(column, name)}",
            {"shown": _LINES_SHOWN},
        ).fetchone() or (0, [], None)
        if count:
            problems.append(Problem(f"{column.type} として読めない値", column.name, tuple(lines), count, example))
    return problems


def _invalid_value(column: Column, name: str) -> str:
    """The condition a value of `column` (quoted as `name`) fails.

    >>> _invalid_value(Column("d", "DATE", ""), "d")
    'd IS NOT NULL AND TRY_CAST(d AS DATE) IS NULL'
    """
    if column.is_json:
        return f"{name} IS NOT NULL AND NOT json_valid({name})"
    return f"{name} IS NOT NULL AND TRY_CAST({name} AS {column.type}) IS NULL"
