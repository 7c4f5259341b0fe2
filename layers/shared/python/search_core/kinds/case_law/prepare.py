"""Build the prepared case-law database: everything normalised and indexed ahead of time.

    python -m search_core.kinds.case_law.prepare cases.db cases.duckdb

The input is the existing SQLite `cases.db` (or a CSV / JSONL export with the same columns). The output is one
DuckDB file that the function opens as it is, with no conversion at cold start:

- `cases`: one row per decision, numbered by `doc_num` in search order (newest real date first);
  `date` is a DATE, `date_text` the date as stored, `court_canonical` the court with abbreviations expanded;
- `texts`: per decision, one zstd frame (texts.py) of the seven searchable columns normalised (NFKC, casefold,
  Arabic numerals), then 主文 and 事実及び理由 as written;
- `grams`: for every character and character pair in the normalised text, the decisions that contain it, as a
  roaring bitmap (grams.py). A keyword can only occur in a decision that holds all its pairs, so these narrow the
  search to a few candidates, which are then checked exactly.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any

import duckdb
from pyroaring import BitMap

from search_core.kinds.case_law.courts import canonical_court
from search_core.kinds.case_law.dates import parse_decision_date
from search_core.kinds.case_law.grams import grams_of, stored
from search_core.kinds.case_law.normalize import normalize
from search_core.kinds.case_law.source import read_decisions
from search_core.kinds.case_law.texts import packed, searched_utf8

# 3: numerals with 万, 億 and 兆 keep those units (三百万 → 300万, as decisions write it); 4: roaring bitmaps, and
# each decision's texts in one zstd frame (texts.py).
FORMAT_VERSION = "4"
SEARCHED_COLUMNS = ("doc_id", "court", "date", "case_number", "case_name", "main_text", "facts_and_reasons")
# Keywords never hold whitespace, so joining the columns with a newline never creates a false match across them.
COLUMN_SEPARATOR = "\n"
_BATCH = 200
_GRAM_CHUNK = 2000  # decisions whose pairs are gathered before they join the sets (bounds the lists held)
_GRAM_ROWS = 50_000  # grams written per statement

_STAGED = """CREATE TEMP TABLE staged (
    doc_id VARCHAR, court VARCHAR, court_canonical VARCHAR, date DATE, date_text VARCHAR, case_number VARCHAR,
    case_name VARCHAR, source_url VARCHAR, has_main_text BOOLEAN, texts BLOB)"""


@dataclass(frozen=True)
class PreparedStats:
    decisions: int
    skipped: int
    grams: int
    seconds: float


def prepare(source: Path, target: Path, threads: int | None = None) -> PreparedStats:
    """Convert `source` into a prepared DuckDB file at `target` (written whole, then renamed into place)."""
    started = time.monotonic()
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    con = duckdb.connect(str(partial), config={"threads": threads or os.cpu_count() or 1})
    try:
        con.execute("SET enable_progress_bar = false")
        con.execute(_STAGED)
        staged, skipped = _stage(con, read_decisions(source))
        _number_decisions(con)
        grams = _index_grams(con, staged)
        con.execute("CREATE TABLE meta AS SELECT ? AS format_version, ? AS decisions", [FORMAT_VERSION, staged])
        con.execute("CHECKPOINT")
    finally:
        con.close()
    os.replace(partial, target)
    return PreparedStats(staged, skipped, grams, time.monotonic() - started)


def search_text(row: dict[str, Any]) -> str:
    """The normalised text a keyword is looked for in: the seven searched columns of one decision."""
    return COLUMN_SEPARATOR.join(normalize(row[c] or "") for c in SEARCHED_COLUMNS)


def _stage(con: duckdb.DuckDBPyConnection, rows: Iterable[dict[str, Any]]) -> tuple[int, int]:
    staged = skipped = 0
    for batch in _batches(rows, _BATCH):
        values = []
        for row in batch:
            if not (row["doc_id"] or "").strip():
                skipped += 1
                continue
            values.append(_staged_values(row))
        if values:
            con.executemany("INSERT INTO staged VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", values)
            staged += len(values)
    duplicates = staged - con.execute("SELECT count(DISTINCT doc_id) FROM staged").fetchall()[0][0]
    return staged - duplicates, skipped + duplicates


def _staged_values(row: dict[str, Any]) -> tuple[Any, ...]:
    return (
        row["doc_id"].strip(),
        row["court"],
        canonical_court(row["court"] or ""),
        parse_decision_date(row["date"]),
        row["date"],
        row["case_number"],
        row["case_name"],
        row["source_url"],
        row["main_text"] is not None,
        packed(search_text(row), row["main_text"], row["facts_and_reasons"]),
    )


def _number_decisions(con: duckdb.DuckDBPyConnection) -> None:
    """Number decisions newest first, so that ascending doc_num is the order results are returned in."""
    con.execute(
        """CREATE TEMP TABLE numbered AS
        SELECT CAST(row_number() OVER (ORDER BY date DESC NULLS LAST, doc_id) - 1 AS INTEGER) AS doc_num, *
        FROM staged QUALIFY row_number() OVER (PARTITION BY doc_id ORDER BY has_main_text DESC) = 1"""
    )
    con.execute("DROP TABLE staged")
    con.execute(
        """CREATE TABLE cases AS SELECT doc_num, doc_id, court, court_canonical, date, date_text, case_number,
        case_name, source_url FROM numbered ORDER BY doc_num"""
    )
    con.execute("CREATE UNIQUE INDEX cases_doc_id ON cases (doc_id)")
    con.execute("SET force_compression = 'uncompressed'")
    con.execute("CREATE TABLE texts AS SELECT doc_num, texts AS packed FROM numbered ORDER BY doc_num")
    con.execute("DROP TABLE numbered")
    con.execute("CHECKPOINT")
    con.execute("RESET force_compression")


def _index_grams(con: duckdb.DuckDBPyConnection, decisions: int) -> int:
    """The decisions holding each character and character pair of the normalised text, read back from `texts` a
    chunk at a time (so the plain texts are never all held at once)."""
    holding: dict[str, BitMap] = {}
    for first in range(0, decisions, _GRAM_CHUNK):
        for gram, numbers in _chunk_grams(con, first, first + _GRAM_CHUNK).items():
            if (known := holding.get(gram)) is None:
                holding[gram] = BitMap(numbers)
            else:
                known.update(numbers)
    con.execute("CREATE TABLE grams (gram VARCHAR, decisions BLOB)")
    ordered = sorted(holding)
    for start in range(0, len(ordered), _GRAM_ROWS):
        chunk = ordered[start : start + _GRAM_ROWS]
        con.execute(
            "INSERT INTO grams SELECT unnest($grams), unnest($sets)",
            {"grams": chunk, "sets": [stored(holding.pop(gram)) for gram in chunk]},
        )
    con.execute("CREATE UNIQUE INDEX grams_gram ON grams (gram)")
    return len(ordered)


def _chunk_grams(con: duckdb.DuckDBPyConnection, first: int, last: int) -> dict[str, list[int]]:
    """Each gram of the decisions numbered first to last (excluded), with those holding it."""
    holding: dict[str, list[int]] = {}
    rows = con.execute(
        "SELECT doc_num, packed FROM texts WHERE doc_num >= ? AND doc_num < ? ORDER BY doc_num", [first, last]
    ).fetchall()
    for number, frame in rows:
        for gram in grams_of(searched_utf8(frame).decode()):
            holding.setdefault(gram, []).append(number)
    return holding


def _batches(rows: Iterable[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    iterator = iter(rows)
    while batch := list(islice(iterator, size)):
        yield batch


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Prepare the case-law database for the search_cases function.")
    parser.add_argument("source", type=Path, help="cases.db (SQLite), or a CSV / JSONL export")
    parser.add_argument("target", type=Path, help="the prepared DuckDB file to write, e.g. cases.duckdb")
    args = parser.parse_args(argv)
    stats = prepare(args.source, args.target)
    print(
        f"{args.target}: {stats.decisions} decisions, {stats.grams} index grams, {stats.skipped} rows skipped "
        f"(no doc_id or duplicate), {stats.seconds:.1f} s",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
