"""Layer 2: with the guard out of the way, the locked connection still reads and changes nothing outside."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import duckdb
import pytest
from tooling.local import DATA_DIR

from search_core.datasets.events import EVENTS
from search_core.engine.loading import attach_dataset_file, write_dataset_file
from search_core.engine.sandbox import connect_bounded, open_sandbox
from tests.conftest import TEST_LIMITS


@pytest.fixture(params=["in memory", "from a table file"])
def locked(request: pytest.FixtureRequest, sandbox: Callable[..., Any], tmp_path: Path) -> duckdb.DuckDBPyConnection:
    """The worker's connection, both ways it can hold a dataset."""
    if request.param == "in memory":
        con: duckdb.DuckDBPyConnection = sandbox("events")
        return con
    table_file = tmp_path / "events-v1.duckdb"
    write_dataset_file(
        EVENTS, DATA_DIR / "events.csv", table_file, lambda db: connect_bounded(TEST_LIMITS, tmp_path, db)
    )
    return open_sandbox(TEST_LIMITS, tmp_path, lambda con: attach_dataset_file(con, EVENTS, table_file))


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT * FROM read_text('/etc/hostname')",
        "SELECT * FROM read_csv('/etc/passwd')",
        "SELECT * FROM '/etc/passwd'",
        "SELECT * FROM glob('/tmp/*')",
        "COPY events TO '{tmp}/stolen.csv'",
        "ATTACH '{tmp}/other.db' AS other",
        "INSTALL httpfs",
        "LOAD httpfs",
    ],
)
def test_external_access_is_off(locked: duckdb.DuckDBPyConnection, tmp_path: Path, sql: str) -> None:
    with pytest.raises(duckdb.Error):
        locked.execute(sql.format(tmp=tmp_path)).fetchall()
    assert not (tmp_path / "stolen.csv").exists()
    assert not (tmp_path / "other.db").exists()


@pytest.mark.parametrize(
    "sql",
    [
        "SET enable_external_access = true",
        "SET memory_limit = '100GB'",
        "SET threads = 64",
        "SET lock_configuration = false",
        "RESET enable_external_access",
    ],
)
def test_configuration_is_locked(locked: duckdb.DuckDBPyConnection, sql: str) -> None:
    with pytest.raises(duckdb.Error, match="lock"):
        locked.execute(sql)


def _as_duckdb_shows(name: str, value: str) -> str:
    """`value` of setting `name` as DuckDB shows it once set (a size is shown in MiB, GiB ...)."""
    con = duckdb.connect()
    con.execute(f"SET {name} = {value}")
    return str(con.execute(f"SELECT current_setting('{name}')").fetchall()[0][0])


@pytest.mark.parametrize(
    ("name", "pinned", "loosened"),
    [
        ("allow_extension_repositories", lambda _: "'forbidden'", "'allowed'"),
        ("allow_persistent_secrets", lambda _: "false", "true"),
        ("max_execution_time", lambda limits: str(limits.statement_milliseconds), "0"),
        ("operator_memory_limit", lambda limits: f"'{limits.operator_memory_mb}MB'", "'100GB'"),
    ],
)
def test_engine_settings_are_pinned_before_the_lock(
    locked: duckdb.DuckDBPyConnection, test_limits: Any, name: str, pinned: Callable[[Any], str], loosened: str
) -> None:
    wanted = _as_duckdb_shows(name, pinned(test_limits))
    assert wanted != _as_duckdb_shows(name, loosened)
    for attempt in (f"SET {name} = {loosened}", f"RESET {name}", f"SET GLOBAL {name} = {loosened}"):
        with pytest.raises(duckdb.Error, match="lock|configuration"):
            locked.execute(attempt)
    assert str(locked.execute(f"SELECT current_setting('{name}')").fetchall()[0][0]) == wanted


def test_a_statement_past_its_time_is_stopped_by_the_engine_itself(tmp_path: Path) -> None:
    quick = replace(TEST_LIMITS, timeout_seconds=0.4)
    locked = open_sandbox(quick, tmp_path)
    with pytest.raises(duckdb.InterruptException, match="maximum execution time"):
        locked.execute("SELECT count(*) FROM range(10000000000) t(i) WHERE hash(i) % 7 = 3").fetchall()


def test_data_is_loaded_before_the_lock(locked: duckdb.DuckDBPyConnection) -> None:
    assert locked.execute("SELECT count(*) FROM events").fetchall() == [(32,)]


@pytest.mark.parametrize("table", ["events", '"events.csv"', "events.csv"])
def test_every_name_and_macro_of_the_dataset_is_there(locked: duckdb.DuckDBPyConnection, table: str) -> None:
    sql = f"SELECT count(*) FROM {table} WHERE start_date <= jst_today() + INTERVAL 100 YEAR"
    assert locked.execute(sql).fetchall() == [(31,)]  # one sample event has no date


def test_sizes_come_from_the_limits(locked: duckdb.DuckDBPyConnection, test_limits: Any) -> None:
    threads = locked.execute("SELECT current_setting('threads')").fetchall()[0][0]
    assert int(threads) == test_limits.threads


@pytest.mark.parametrize(
    "reader",
    [
        "SELECT * FROM read_csv('{path}')",
        "SELECT * FROM '{path}'",
        "SELECT * FROM read_text('{path}')",
        "SELECT * FROM glob('{folder}/*')",
        "SELECT * FROM '{folder}/*.csv'",
    ],
)
def test_no_file_is_readable_after_loading_not_even_in_duckdbs_own_folders(
    locked: duckdb.DuckDBPyConnection, tmp_path: Path, reader: str
) -> None:
    for folder in tmp_path.rglob("duckdb-tmp"):
        (folder / "canary.csv").write_text("secret\ncanary-in-temp\n", encoding="utf-8")
        with pytest.raises(duckdb.Error) as refused:
            locked.execute(reader.format(path=folder / "canary.csv", folder=folder)).fetchall()
        assert "canary-in-temp" not in str(refused.value)


def test_no_setting_names_a_host_folder(locked: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    # The open table file stays listed in allowed_paths (DuckDB adds it, resolved, when external access is turned
    # off); the plan check keeps every settings and catalog view out of reach, and the worker's net catches it.
    folders = {name: value for name, value in locked.execute("SELECT name, value FROM duckdb_settings()").fetchall()}
    assert (folders["home_directory"], folders["temp_directory"], folders["secret_directory"]) == ("", "", "")
    assert not any(str(folder) in " ".join(map(str, folders.values())) for folder in tmp_path.rglob("duckdb-tmp"))


def test_a_load_that_spilled_still_locks_down(tmp_path: Path) -> None:
    spilling = replace(TEST_LIMITS, duckdb_memory_mb=64)

    def load(con: duckdb.DuckDBPyConnection) -> None:
        con.execute("CREATE TABLE events AS SELECT md5(CAST(x AS VARCHAR)) AS h FROM range(3000000) t(x) ORDER BY h")

    locked = open_sandbox(spilling, tmp_path, load)
    assert locked.execute("SELECT count(*) FROM events").fetchall() == [(3_000_000,)]
    with pytest.raises(duckdb.Error):
        locked.execute("SET enable_external_access = true")
    (tmp_path / "duckdb-tmp" / "canary.csv").write_text("s\ncanary\n", encoding="utf-8")
    with pytest.raises(duckdb.PermissionException):
        locked.execute(f"SELECT * FROM read_csv('{tmp_path / 'duckdb-tmp' / 'canary.csv'}')").fetchall()
