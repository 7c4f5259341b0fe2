"""Prepare e-Gov's law XML (a zip or a folder of the bulk download's folders) into the DuckDB file the function
serves from:

    .venv/bin/python scripts/prepare_statutes.py statutes.zip statutes.duckdb   # with progress; make upload-data too

Tables: `versions` (one row per law version: its law, effective date, number, title, and its articles' rows),
`articles` (one row per article of each version, numbered in the order read: a version's articles are one run of
row numbers), the full-text index of the articles' normalised text (fulltext/index.py: `grams`, `keys`), and one of
their captions and titles (`heading_grams`, `heading_keys`).
"""

from __future__ import annotations

import json
import os
import time
import zipfile
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from datetime import date
from pathlib import Path
from typing import Any

import duckdb

from search_core.fulltext.index import IndexBuilder
from search_core.fulltext.normalize import normalize
from search_core.fulltext.progress import Progress, no_progress
from search_core.kinds.statutes.egov.bundle import Reading, law_files
from search_core.kinds.statutes.egov.law_xml import LawXmlError, read_law
from search_core.kinds.statutes.models import Article, LawVersion
from search_core.kinds.statutes.references import law_number_key

# Raised whenever what is prepared changes, so a file of an older format is refused.
FORMAT_VERSION = "1"
STAGES = ("reading laws", "writing index grams", "saving laws")
READING, WRITING_INDEX, SAVING = STAGES
_BATCH = 5_000  # articles inserted per statement
# The second index, of each article's caption and title (its heading): what a search ranks first.
HEADINGS = "heading_"

_TABLES = (
    """CREATE TABLE versions (version_num INTEGER PRIMARY KEY, law_id VARCHAR, effective DATE, amended_by VARCHAR,
    law_num VARCHAR, law_num_key VARCHAR, title VARCHAR, abbreviations VARCHAR[], law_type VARCHAR, first_row INTEGER,
    articles INTEGER)""",
    """CREATE TABLE articles (row_num INTEGER, version_num INTEGER, article_key VARCHAR, supplement VARCHAR,
    title VARCHAR, caption VARCHAR, place VARCHAR[], paragraphs VARCHAR, heading VARCHAR, searched VARCHAR)""",
)


@dataclass(frozen=True)
class PreparedStatutes:
    laws: int
    versions: int
    articles: int
    skipped: int
    grams: int
    seconds: float


def prepare(source: Path, target: Path, progress: Progress = no_progress) -> PreparedStatutes:
    """Convert the zip or folder at `source` into a prepared DuckDB file at `target` (written whole, then renamed
    into place). Raises LawXmlError, naming the file and line, on the first law that cannot be read."""
    started = time.monotonic()
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    con = duckdb.connect(str(partial), config={"threads": os.cpu_count() or 1})
    try:
        for statement in _TABLES:
            con.execute(statement)
        reading = Reading()
        texts, headings = IndexBuilder(), IndexBuilder()
        versions, rows = _load(con, _versions(source, reading), (texts, headings), progress)
        grams = texts.write(con, lambda done, total: progress(WRITING_INDEX, done, total))
        headings.write(con, lambda done, total: None, prefix=HEADINGS)
        progress(WRITING_INDEX, grams, grams)
        progress(SAVING, 0, 1)
        con.execute("CREATE INDEX articles_by_key ON articles (version_num, article_key)")
        con.execute("CREATE INDEX articles_by_row ON articles (row_num)")
        laws = con.execute("SELECT count(DISTINCT law_id) FROM versions").fetchall()[0][0]
        con.execute("CREATE TABLE meta AS SELECT ? AS format_version", [FORMAT_VERSION])
        con.execute("CHECKPOINT")
        progress(SAVING, 1, 1)
    except BaseException:
        con.close()
        partial.unlink(missing_ok=True)  # a preparation that fails leaves nothing behind
        raise
    con.close()
    os.replace(partial, target)
    return PreparedStatutes(laws, versions, rows, reading.skipped, grams, time.monotonic() - started)


def _versions(source: Path, reading: Reading) -> Iterator[LawVersion]:
    try:
        for folder, data in law_files(source, reading):
            yield read_law(data, folder)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, RuntimeError) as error:
        raise LawXmlError(f"zip を読めません: {str(error)[:200]}") from None


def _load(
    con: duckdb.DuckDBPyConnection,
    versions: Iterator[LawVersion],
    builders: tuple[IndexBuilder, IndexBuilder],
    progress: Progress,
) -> tuple[int, int]:
    """Every version and its articles written, their text indexed; how many versions and articles."""
    pending: list[tuple[Any, ...]] = []
    version_num = row = 0
    seen: set[tuple[str, date, str | None]] = set()
    for version in versions:
        progress(READING, version_num, None)
        if (version.law_id, version.effective, version.amended_by) in seen:  # one folder twice (under two tops)
            continue
        seen.add((version.law_id, version.effective, version.amended_by))
        con.execute(
            "INSERT INTO versions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [version_num, version.law_id, version.effective, version.amended_by, version.law_num,
             law_number_key(version.law_num), version.title, list(version.abbreviations), version.law_type, row,
             len(version.articles)],
        )  # fmt: skip
        for article in version.articles:
            pending.append(_article_row(row, version_num, article))
            row += 1
        if len(pending) >= _BATCH:
            _flush(con, pending, builders)
        version_num += 1
    _flush(con, pending, builders)
    progress(READING, version_num, version_num)
    return version_num, row


def _article_row(row: int, version_num: int, article: Article) -> tuple[Any, ...]:
    paragraphs = json.dumps([asdict(paragraph) for paragraph in article.paragraphs], ensure_ascii=False)
    heading = normalize(f"{article.caption or ''}{article.title}")
    return (row, version_num, article.key, article.supplement, article.title, article.caption, list(article.place),
            paragraphs, heading, normalize(article.text))  # fmt: skip


def _flush(
    con: duckdb.DuckDBPyConnection, pending: list[tuple[Any, ...]], builders: tuple[IndexBuilder, IndexBuilder]
) -> None:
    if not pending:
        return
    columns = list(zip(*pending, strict=True))
    con.execute(
        "INSERT INTO articles SELECT " + ", ".join(f"unnest(${index})" for index in range(1, len(columns) + 1)),
        [list(column) for column in columns],
    )
    texts, headings = builders
    texts.add((row[0], row[-1]) for row in pending)
    headings.add((row[0], row[-2]) for row in pending)
    pending.clear()
