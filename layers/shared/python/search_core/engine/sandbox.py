"""Layer 2 of the SQL safety: a DuckDB connection that can read nothing but the tables loaded into it.

The data is loaded first; then every host path is blanked from the settings, external access (network, COPY,
ATTACH, extensions) is turned off, the local file system disabled — `enable_external_access=false` alone still lets a
query read files under `temp_directory` — and the configuration locked, so no query can turn any of it back on. An
open database file stays readable through the handle DuckDB already holds; nothing else on disk is. Without a temp
directory nothing spills: a query that would need to gets the memory message instead.

Before the lock, the engine's own bounds are pinned too: a statement stops at the worker's interrupt deadline even
if the watchdog thread does not fire (`max_execution_time`, so the parent's kill stays the last resort), and a
query's intermediates may take only the share of memory the loaded data leaves (`operator_memory_limit`). No
extension repository can be added and no secret persisted, whatever a later release makes the defaults.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

import duckdb

from search_core.engine.limits import QueryLimits

_LOCKDOWN = (
    "SET home_directory = ''",
    "SET secret_directory = ''",
    "SET enable_external_access = false",
    "SET disabled_filesystems = 'LocalFileSystem'",
    "SET lock_configuration = true",
)


def _engine_bounds(limits: QueryLimits) -> tuple[str, ...]:
    """The per-statement bounds, set after loading (a load may take longer and use more than one query may)."""
    return (
        f"SET max_execution_time = {limits.statement_milliseconds}",
        f"SET operator_memory_limit = '{limits.operator_memory_mb}MB'",
    )


def open_sandbox(
    limits: QueryLimits,
    work_dir: Path,
    load: Callable[[duckdb.DuckDBPyConnection], None] | None = None,
    database: Path | None = None,
) -> duckdb.DuckDBPyConnection:
    """Open a connection sized by `limits`, run `load` on it, then lock it down.

    With `database`, that file is opened read-only; otherwise the connection is in memory.
    """
    con = connect_bounded(limits, work_dir, database, read_only=database is not None)
    if load is not None:
        load(con)
    _forget_temp_directory(con)
    for statement in (*_engine_bounds(limits), *_LOCKDOWN):
        con.execute(statement)
    return con


def _forget_temp_directory(con: duckdb.DuckDBPyConnection) -> None:
    """Blank the spill folder's path, unless a large load has already spilled there: DuckDB then keeps it (and
    still lists it), but with the local file system disabled below, no query can read it."""
    with contextlib.suppress(duckdb.NotImplementedException):
        con.execute("SET temp_directory = ''")


def connect_bounded(
    limits: QueryLimits, work_dir: Path, database: Path | None = None, read_only: bool = False
) -> duckdb.DuckDBPyConnection:
    """A connection with the resource bounds of `limits` (threads, memory, spill space) and no extension loading,
    not yet locked down: for loading data, before `open_sandbox` serves queries."""
    spill_dir = work_dir / "duckdb-tmp"
    spill_dir.mkdir(parents=True, exist_ok=True)
    return duckdb.connect(
        str(database) if database else ":memory:",
        read_only=read_only,
        config={
            "threads": limits.threads,
            "memory_limit": f"{limits.duckdb_memory_mb}MB",
            "temp_directory": str(spill_dir),
            "max_temp_directory_size": "512MB",
            "home_directory": str(work_dir),
            "autoinstall_known_extensions": False,
            "autoload_known_extensions": False,
            "allow_community_extensions": False,
            "allow_extension_repositories": "forbidden",
            "allow_persistent_secrets": False,
        },
    )
