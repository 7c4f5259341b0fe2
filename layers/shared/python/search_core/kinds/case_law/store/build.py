"""Build the prepared case-law database: everything normalised and indexed ahead of time.

    .venv/bin/python scripts/prepare_cases.py cases.db cases.duckdb    # with progress; make upload-data does it too

The input is the existing SQLite `cases.db` (or a CSV / JSONL export with the same columns). The output is one
DuckDB file that the function opens as it is, with no conversion at cold start:

- `cases`: one row per decision, numbered by `doc_num` in search order (newest real date first);
  `date` is a DATE, `date_text` the date as stored, `court_canonical` the court with abbreviations expanded;
- `texts`: per decision, one zstd frame (fulltext/packed.py) of the seven searchable columns normalised (NFKC, casefold,
  Arabic numerals), then 主文 and 事実及び理由 as written;
- `grams`: for every character and character pair in the normalised text, the decisions that contain it, as a
  roaring bitmap (fulltext/grams.py). A keyword can only occur in a decision that holds all its pairs, so these
  narrow the search to a few candidates, which are then checked exactly;
- `keys`: the same for what a citation or a sum is made of, read from the same text as its exact test reads it (each
  kind of term's `keys_in`, asked by fulltext/index.py): the character pairs of 709条 or 300万円 are in nearly every
  decision, the keys 709条 then 1項, or 3,000,000 yen, in few.
A decision's body is searched up to MAX_SEARCHED_CHARS (searched_length), its names up to MAX_SEARCHED_NAME_CHARS.
"""

from __future__ import annotations

import os
import time
import unicodedata
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any

import duckdb

from search_core.fulltext.dates import parse_decision_date
from search_core.fulltext.index import IndexBuilder
from search_core.fulltext.normalize import normalize
from search_core.fulltext.packed import packed, searched_utf8
from search_core.fulltext.progress import Progress, no_progress
from search_core.kinds.case_law.limits import MAX_DOC_ID_CHARS, MAX_SEARCHED_CHARS, MAX_SEARCHED_NAME_CHARS
from search_core.kinds.case_law.store.exports import counted_rows, read_decisions
from search_core.kinds.case_law.text.courts import canonical_court
from search_core.kinds.case_law.text.outcome import read_outcome

# Raised whenever what is prepared changes, so a file of an older format is refused (docs/case-law.md lists
# what each version holds).
FORMAT_VERSION = "15"
SEARCHED_COLUMNS = ("doc_id", "court", "date", "case_number", "case_name", "main_text", "facts_and_reasons")
_BODY = ("main_text", "facts_and_reasons")
# Keywords never hold whitespace, so joining the columns with a newline never creates a false match across them.
COLUMN_SEPARATOR = "\n"
_BATCH = 200
_GRAM_CHUNK = 2000  # decisions whose pairs are gathered before they join the sets (bounds the lists held)
# Normalising (NFKC) lengthens a character at most eighteenfold (ﷺ): a body this short is never past the bound.
_LONGEST_NORMAL_FORM = 18
# After NFKC, the rest of normalising lengthens a character at most threefold (① is (1), ΐ casefolds to three).
_FOLDING_GROWTH = 3
_MEASURED_SLICE = 65_536

# The stages, in order, as a Progress is told them; each counts decisions, but writing the index counts grams.
STAGES = ("reading decisions", "numbering decisions", "indexing decisions", "writing index grams", "saving decisions")
READING, NUMBERING, INDEXING, WRITING_INDEX, SAVING = STAGES

_STAGED = """CREATE TEMP TABLE staged (
    doc_id VARCHAR, court VARCHAR, court_canonical VARCHAR, date DATE, date_text VARCHAR, case_number VARCHAR,
    case_name VARCHAR, source_url VARCHAR, has_main_text BOOLEAN, main_at INTEGER, main_length INTEGER,
    searched_chars INTEGER, outcome VARCHAR, texts BLOB)"""


@dataclass(frozen=True)
class PreparedStats:
    decisions: int
    skipped: int
    grams: int
    seconds: float
    searched_in_part: int = 0  # decisions past MAX_SEARCHED_CHARS


def prepare(
    source: Path,
    target: Path,
    threads: int | None = None,
    progress: Progress = no_progress,
    searched_chars: int = MAX_SEARCHED_CHARS,
) -> PreparedStats:
    """Convert `source` into a prepared DuckDB file at `target` (written whole, then renamed into place), telling
    `progress` each stage of STAGES as it goes (100,000 decisions take ~20 minutes). A decision is searched up to
    `searched_chars` normalised characters of its 主文 and 事実及び理由."""
    started = time.monotonic()
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    con = duckdb.connect(str(partial), config={"threads": threads or os.cpu_count() or 1})
    try:
        con.execute("SET enable_progress_bar = false")
        con.execute(_STAGED)
        staged, skipped = _stage(con, read_decisions(source), counted_rows(source), progress, searched_chars)
        progress(NUMBERING, 0, staged)
        _number_decisions(con)
        progress(NUMBERING, staged, staged)
        grams = _index_grams(con, staged, progress)
        progress(SAVING, 0, staged)
        con.execute("CREATE TABLE meta AS SELECT ? AS format_version, ? AS decisions", [FORMAT_VERSION, staged])
        con.execute("CHECKPOINT")
        progress(SAVING, staged, staged)
        in_part = con.execute("SELECT count(*) FROM cases WHERE searched_chars IS NOT NULL").fetchall()[0][0]
    except BaseException:
        con.close()
        partial.unlink(missing_ok=True)  # a preparation that fails leaves nothing behind
        raise
    con.close()
    os.replace(partial, target)
    return PreparedStats(staged, skipped, grams, time.monotonic() - started, in_part)


def search_text(row: dict[str, Any]) -> str:
    """The normalised text a keyword is looked for in: the seven searched columns of one decision."""
    return COLUMN_SEPARATOR.join(_searched_pieces(row))


def _searched_pieces(row: dict[str, Any]) -> list[str]:
    """Each searched column normalised; a name cut to MAX_SEARCHED_NAME_CHARS first (the body is cut by
    _searched_row)."""
    return [normalize((row[c] or "")[: None if c in _BODY else MAX_SEARCHED_NAME_CHARS]) for c in SEARCHED_COLUMNS]


def searched_length(main_text: str, facts_and_reasons: str, bound: int = MAX_SEARCHED_CHARS) -> int | None:
    """How many characters of the 主文 followed by 事実及び理由 (as written) are searched: None for all of them, else
    the most whose normal form (the searched text: NFKC, ① as (1), casefold) stays within `bound` characters,
    measured a slice at a time (so within a few characters where a slice's edge splits a number), and so that a body
    of any length costs no more than the bound.

    >>> searched_length("主文", "理由" * 10, bound=5), searched_length("主文", "理由", bound=5)
    (5, None)
    """
    body_length = len(main_text) + len(facts_and_reasons)
    if body_length * _LONGEST_NORMAL_FORM <= bound:
        return None
    if body_length <= bound and _nfkc_length(main_text, facts_and_reasons) * _FOLDING_GROWTH <= bound:
        return None  # a long real judgment: known to fit without being normalised twice
    room = bound
    for start in range(0, body_length, _MEASURED_SLICE):
        piece = _body_slice(main_text, facts_and_reasons, start, start + _MEASURED_SLICE)
        grown = len(normalize(piece))
        if grown > room:
            return start + bisect_right(range(len(piece) + 1), room, key=lambda n: len(normalize(piece[:n]))) - 1
        room -= grown
    return None


def _nfkc_length(*texts: str) -> int:
    return sum(len(unicodedata.normalize("NFKC", text)) for text in texts)


def _body_slice(main_text: str, facts_and_reasons: str, start: int, end: int) -> str:
    """Characters start to end of the 主文 followed by 事実及び理由, without joining the two whole."""
    main = len(main_text)
    return main_text[start:end] + facts_and_reasons[max(start - main, 0) : max(end - main, 0)]


def _searched_row(row: dict[str, Any], bound: int) -> tuple[dict[str, Any], int | None]:
    """The decision as it is searched: its 主文 and 事実及び理由 cut where searching stops (searched_length), and
    where that is (None: nowhere)."""
    main, reasons = row["main_text"] or "", row["facts_and_reasons"] or ""
    kept = searched_length(main, reasons, bound)
    if kept is None:
        return row, None
    return {**row, "main_text": main[:kept], "facts_and_reasons": reasons[: max(kept - len(main), 0)]}, kept


def _main_span(pieces: list[str]) -> tuple[int, int]:
    """Where the normalised 主文 lies in the searched text, and its length: a 主文: term reads it there, and no 主文
    is normalised again when a search asks (18 s for a 主文 of 10 million characters).

    >>> _main_span(["d", "c", "", "n", "name", "主文", "理由"])
    (12, 2)
    """
    column = SEARCHED_COLUMNS.index("main_text")
    return sum(len(piece) + len(COLUMN_SEPARATOR) for piece in pieces[:column]), len(pieces[column])


def _stage(
    con: duckdb.DuckDBPyConnection,
    rows: Iterable[dict[str, Any]],
    total: int | None,
    progress: Progress,
    searched_chars: int,
) -> tuple[int, int]:
    """Every row normalised and packed into `staged`; how many decisions that makes, and how many rows were skipped
    (no doc_id, one longer than an agent may send, or a duplicate). `total`: the rows to read, if known."""
    staged = skipped = 0
    for batch in _batches(rows, _BATCH):
        progress(READING, staged + skipped, total)
        values = []
        for row in batch:
            if not 0 < len((row["doc_id"] or "").strip()) <= MAX_DOC_ID_CHARS:
                skipped += 1
                continue
            values.append(_staged_values(row, searched_chars))
        if values:
            con.executemany("INSERT INTO staged VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", values)
            staged += len(values)
    duplicates = staged - con.execute("SELECT count(DISTINCT doc_id) FROM staged").fetchall()[0][0]
    progress(READING, staged + skipped, staged + skipped)
    return staged - duplicates, skipped + duplicates


def _staged_values(row: dict[str, Any], searched_chars: int) -> tuple[Any, ...]:
    searched, kept = _searched_row(row, searched_chars)
    pieces = _searched_pieces(searched)
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
        *_main_span(pieces),
        kept,
        read_outcome(row["main_text"]).kind,
        packed(COLUMN_SEPARATOR.join(pieces), row["main_text"], row["facts_and_reasons"]),
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
        case_name, source_url, main_at, main_length, searched_chars, outcome FROM numbered ORDER BY doc_num"""
    )
    con.execute("CREATE UNIQUE INDEX cases_doc_id ON cases (doc_id)")
    con.execute("SET force_compression = 'uncompressed'")
    con.execute("CREATE TABLE texts AS SELECT doc_num, texts AS packed FROM numbered ORDER BY doc_num")
    con.execute("DROP TABLE numbered")
    con.execute("CHECKPOINT")
    con.execute("RESET force_compression")


def _index_grams(con: duckdb.DuckDBPyConnection, decisions: int, progress: Progress) -> int:
    """The decisions holding each character and character pair of the normalised text, and each key, read back from
    `texts` a chunk at a time (so the plain texts are never all held at once); how many grams that makes."""
    builder = IndexBuilder()
    for first in range(0, decisions, _GRAM_CHUNK):
        progress(INDEXING, first, decisions)
        builder.add(_chunk_texts(con, first, first + _GRAM_CHUNK))
    progress(INDEXING, decisions, decisions)
    written = builder.write(con, lambda done, total: progress(WRITING_INDEX, done, total))
    progress(WRITING_INDEX, written, written)
    return written


def _chunk_texts(con: duckdb.DuckDBPyConnection, first: int, last: int) -> Iterator[tuple[int, str]]:
    """The normalised searched text of the decisions numbered first to last (excluded), with their numbers."""
    rows = con.execute(
        "SELECT doc_num, packed FROM texts WHERE doc_num >= ? AND doc_num < ? ORDER BY doc_num", [first, last]
    ).fetchall()
    for number, frame in rows:
        yield number, searched_utf8(frame).decode()


def _batches(rows: Iterable[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    iterator = iter(rows)
    while batch := list(islice(iterator, size)):
        yield batch
