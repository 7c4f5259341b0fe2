"""Open the statutes as a StatuteIndex: a prepared DuckDB file as it is, a zip or a folder of e-Gov's law XML
prepared first."""

from __future__ import annotations

from pathlib import Path

import duckdb

from search_core.engine.limits import QueryLimits
from search_core.engine.sandbox import open_sandbox
from search_core.errors import DataUnavailable
from search_core.kinds.statutes.egov.bundle import law_xml_bytes
from search_core.kinds.statutes.egov.law_xml import LawXmlError
from search_core.kinds.statutes.store.build import FORMAT_VERSION, prepare
from search_core.kinds.statutes.store.index import StatuteIndex
from search_core.scrub import scrub_paths
from search_core.storage.cache import LocalCopy
from search_core.storage.prepared import check_format, is_duckdb, prepared_once

FILE_NAME = "statutes"
# Preparing takes about this many bytes of memory per byte of law XML: every current law, 714 MB of XML, peaked at
# 2.4 GB (scripts/bench_statutes.py), with room to spare.
PREPARING_MEMORY_PER_XML = 4
# Preparing reads about 2 MB of law XML a second (every current law: 714 MB in 330 s): beyond this, a function would
# time out preparing, and try again on every call.
MAX_XML_MB_PREPARED_IN_FUNCTION = 30


def open_statutes(local: LocalCopy, limits: QueryLimits, work_dir: Path, memory_mb: int) -> StatuteIndex:
    """A locked, read-only index on `local`; a zip or a folder of law XML is prepared into work_dir first, if a
    function of `memory_mb` can."""
    try:
        database = local.path if is_duckdb(local.path) else _prepared(local, work_dir, memory_mb)
        con = open_sandbox(limits, work_dir, database=database)
        check_format(con, FORMAT_VERSION, f"法令データ「{FILE_NAME}」")
        return StatuteIndex(con)
    except DataUnavailable:
        raise
    except LawXmlError as error:
        raise DataUnavailable(f"法令データ「{FILE_NAME}」を準備できません: {scrub_paths(error.message)}") from None
    except (OSError, duckdb.Error, ValueError, KeyError) as error:
        first_line = scrub_paths(str(error).splitlines()[0] if str(error) else type(error).__name__)
        raise DataUnavailable(f"法令データ「{FILE_NAME}」を読み込めません: {first_line[:300]}") from None


def _prepared(local: LocalCopy, work_dir: Path, memory_mb: int) -> Path:
    """Law XML prepared once, unless it would take more memory or time than the function has (refused before
    anything is read)."""

    def too_large(source: Path) -> None:
        xml_mb = law_xml_bytes(source) / 1024**2
        if xml_mb * PREPARING_MEMORY_PER_XML > memory_mb or xml_mb > MAX_XML_MB_PREPARED_IN_FUNCTION:
            raise DataUnavailable(
                f"法令データ「{FILE_NAME}」は関数の中で準備するには大きすぎます（法令 XML {xml_mb:,.0f} MB、"
                f"関数のメモリ {memory_mb:,} MB）。make upload-data で準備済みファイルを作って置いてください。"
            )

    return prepared_once(local, work_dir, "statutes", FORMAT_VERSION, prepare, too_large)
