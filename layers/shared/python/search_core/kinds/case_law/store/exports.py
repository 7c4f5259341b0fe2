"""Reading decisions from the files the existing system keeps: SQLite `cases.db`, or CSV / JSONL exports."""

from __future__ import annotations

import csv
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from search_core.storage.prepared import DUCKDB_MAGIC

COLUMNS = ("doc_id", "court", "date", "case_number", "case_name", "main_text", "facts_and_reasons", "source_url")
SQLITE_MAGIC = b"SQLite format 3\x00"


def file_kind(path: Path) -> str:
    """'duckdb', 'sqlite', 'csv' or 'jsonl', by content first and extension second."""
    with path.open("rb") as head:
        start = head.read(16)
    if start[8:12] == DUCKDB_MAGIC:
        return "duckdb"
    if start.startswith(SQLITE_MAGIC):
        return "sqlite"
    if path.suffix.lower() in (".jsonl", ".ndjson", ".json"):
        return "jsonl"
    return "csv"


def read_decisions(path: Path) -> Iterator[dict[str, Any]]:
    """Every decision in `path` as a dict of COLUMNS (missing ones as None)."""
    kind = file_kind(path)
    rows = {"sqlite": _sqlite_rows, "csv": _csv_rows, "jsonl": _jsonl_rows}[kind](path)
    for row in rows:
        yield {column: _text(row.get(column)) for column in COLUMNS}


def counted_rows(path: Path) -> int | None:
    """How many rows read_decisions yields, when a file says so cheaply (SQLite); None for a CSV or JSONL export,
    which would have to be read through once more."""
    if file_kind(path) != "sqlite":
        return None
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return int(con.execute("SELECT count(*) FROM cases").fetchone()[0])
    finally:
        con.close()


def _sqlite_rows(path: Path) -> Iterator[dict[str, Any]]:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        present = {r[1] for r in con.execute("PRAGMA table_info(cases)")}
        selected = ", ".join(c if c in present else f"NULL AS {c}" for c in COLUMNS)
        cursor = con.execute(f"SELECT {selected} FROM cases")
        for values in cursor:
            yield dict(zip(COLUMNS, values, strict=True))
    finally:
        con.close()


def _csv_rows(path: Path) -> Iterator[dict[str, Any]]:
    """The rows of a CSV export, which must name its columns, doc_id among them: any other file (one of arbitrary
    bytes, a JSONL export named .db) is refused, not read as an empty corpus."""
    with path.open(encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        if "doc_id" not in (reader.fieldnames or []):
            raise KeyError("not a CSV export of decisions: its header names no doc_id column")
        yield from reader


def _jsonl_rows(path: Path) -> Iterator[dict[str, Any]]:
    """The rows of a JSONL export, each line one object: a line that is valid JSON but no object (123) is refused
    like a file of no decisions, not read into an internal error."""
    with path.open(encoding="utf-8-sig") as handle:
        for number, line in enumerate(handle, 1):
            if line.strip():
                row = json.loads(line)
                if not isinstance(row, dict):
                    raise KeyError(f"line {number} of a JSONL export is not an object of a decision")
                yield row


def _text(value: Any) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else str(value)
