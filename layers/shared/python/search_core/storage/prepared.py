"""A kind's database as its function opens it: a prepared DuckDB file as it is; anything else (a raw export, law XML)
prepared once per version of it and of the format into the /tmp cache; either way refused when its format is not the
one this code writes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import duckdb

from search_core.errors import DataUnavailable
from search_core.observability import logger
from search_core.storage.cache import LocalCopy

DUCKDB_MAGIC = b"DUCK"  # at offset 8 of a DuckDB database file


def is_duckdb(path: Path) -> bool:
    """Whether `path` is a DuckDB database file, by its content (a folder is not)."""
    if not path.is_file():
        return False
    with path.open("rb") as head:
        return head.read(16)[8:12] == DUCKDB_MAGIC


def prepared_once(
    local: LocalCopy,
    work_dir: Path,
    stem: str,
    version: str,
    prepare: Callable[[Path, Path], object],
    refuse: Callable[[Path], None] = lambda source: None,
) -> Path:
    """The database `prepare(source, target)` makes of `local`, made once per version of it and of the format
    (`stem-v<version>`); a file prepared by older code, kept in a cache folder that outlived it, is made again.
    `refuse` may raise before anything is prepared (a source too large for the function)."""
    target = local.derived_file(work_dir, f"{stem}-v{version}")
    if not target.exists():
        refuse(local.path)
        work_dir.mkdir(parents=True, exist_ok=True)
        for stale in work_dir.glob(f"{stem}-*.duckdb"):
            stale.unlink(missing_ok=True)
        logger.warning("preparing a raw file at load time", dataset=stem)
        prepare(local.path, target)
    return target


def check_format(con: duckdb.DuckDBPyConnection, version: str, named: str) -> None:
    """Refuse a prepared database of another format than `version` (its `meta` table says which); `named` is how
    the message names the data (データセット「cases.db」)."""
    try:
        found = con.execute("SELECT format_version FROM meta").fetchall()[0][0]
    except (duckdb.Error, IndexError):
        found = None
    if found != version:
        raise DataUnavailable(
            f"{named}は準備済みデータベースの形式（{version}）ではありません。make upload-data で作り直してください。"
        )
