"""Open a cases file as a CaseIndex: a prepared DuckDB file as it is, anything else prepared first."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import duckdb

from search_core.engine.limits import QueryLimits
from search_core.engine.sandbox import open_sandbox
from search_core.errors import DataUnavailable
from search_core.kinds.case_law.store.build import FORMAT_VERSION, prepare
from search_core.kinds.case_law.store.exports import file_kind
from search_core.kinds.case_law.store.index import CaseIndex
from search_core.scrub import scrub_paths
from search_core.storage.cache import LocalCopy
from search_core.storage.prepared import check_format, prepared_once

FILE_NAME = "cases.db"


def open_cases(local: LocalCopy, limits: QueryLimits, work_dir: Path) -> CaseIndex:
    """A locked, read-only index on `local`; a raw SQLite / CSV / JSONL file is prepared into work_dir first."""
    try:
        database = local.path if file_kind(local.path) == "duckdb" else _prepared(local, work_dir)
        con = open_sandbox(limits, work_dir, database=database)
        check_format(con, FORMAT_VERSION, f"データセット「{FILE_NAME}」")
        return CaseIndex(con)
    except DataUnavailable:
        raise
    except (OSError, duckdb.Error, sqlite3.Error, json.JSONDecodeError, UnicodeDecodeError, KeyError) as error:
        first_line = scrub_paths(str(error).splitlines()[0] if str(error) else type(error).__name__)
        raise DataUnavailable(f"データセット「{FILE_NAME}」を読み込めません: {first_line[:300]}") from None


def _prepared(local: LocalCopy, work_dir: Path) -> Path:
    """A raw file prepared once (slow for a large file: upload a prepared one instead)."""
    return prepared_once(local, work_dir, "cases", FORMAT_VERSION, prepare)
