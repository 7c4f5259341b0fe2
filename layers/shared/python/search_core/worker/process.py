"""The worker process: holds one sandboxed dataset and runs the parent's queries, one JSON line each way.

Run as `python -m search_core.worker.process`. It lives in its own process so that a query DuckDB cannot stop
(a multi-gigabyte allocation ignores both memory_limit and interrupt) takes down only this process, which
the parent kills and restarts; its environment holds no credentials. It imports DuckDB before it reads its boot
line, so a worker started ahead of its data does that while the parent is still downloading.
"""

from __future__ import annotations

import os
import resource
import sys
import tempfile
import time
import traceback
from collections.abc import Iterator
from functools import cached_property
from pathlib import Path
from typing import IO

import duckdb

from search_core.engine.loading import attach_dataset_file, load_dataset, write_dataset_file
from search_core.engine.sandbox import connect_bounded, open_sandbox
from search_core.engine.table import TableSpec
from search_core.errors import DataUnavailable, QueryFailed, QueryRejected, SearchError
from search_core.safety.policy import QueryPolicy
from search_core.scrub import HostPathNet
from search_core.worker.execute import run_query
from search_core.worker.insight import DataInsight
from search_core.worker.protocol import (
    Boot,
    Describe,
    Failure,
    FailureKind,
    Hinted,
    Profiled,
    Query,
    Ready,
    Reply,
    Request,
    Rows,
    decode_request,
    encode,
)

_LEAK_MESSAGE = "結果またはエラーにサーバー内部のパスが含まれるため返せません。データの列だけを選んでください。"


def main() -> None:
    requests = sys.stdin.buffer
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything else printed goes to the log, never into the reply channel
    boot = decode_request(requests.readline())
    assert isinstance(boot, Boot), "the first message is the boot"
    _limit_address_space(boot.limits.worker_address_space_mb)
    session = _open_session(boot, replies)
    if session is None:
        return
    for line in requests:
        request = decode_request(line)
        assert not isinstance(request, Boot), "one boot only"
        try:
            for reply in session.safe_answers(request):
                _write_line(replies, reply)
        except MemoryError:
            # Python's own heap is exhausted under the address-space cap, and would stay so for the next queries:
            # say why, then exit, so that the parent starts a fresh worker for the next one.
            _send(replies, Failure(FailureKind.ABORTED, session.limits.memory_message, retiring=True))
            return


class _Session:
    def __init__(self, boot: Boot) -> None:
        self.table = boot.table
        self.limits = boot.limits
        work_dir = Path(boot.work_dir).resolve()
        data_paths = [p for p in (boot.csv_path, boot.database) if p]
        self.con, link = self._open(boot, work_dir)
        self.host_paths = HostPathNet([*boot.host_paths, str(work_dir), *data_paths, *([str(link)] if link else [])])

    def _open(self, boot: Boot, work_dir: Path) -> tuple[duckdb.DuckDBPyConnection, Path | None]:
        """The sandboxed connection serving the data, and the link a DuckDB file was attached through, if any."""
        database = Path(boot.database).resolve() if boot.database else None
        if database is None:
            assert boot.csv_path is not None
            csv_path = Path(boot.csv_path)
            return open_sandbox(self.limits, work_dir, lambda c: load_dataset(c, self.table, csv_path)), None
        if not database.exists():  # made from the CSV once; a restarted worker reopens it
            if boot.csv_path is None:
                raise DataUnavailable(f"データセット「{self.table.file_name}」のファイルが見つかりません。")
            write_dataset_file(
                self.table, Path(boot.csv_path), database, lambda db: connect_bounded(self.limits, work_dir, db)
            )
        link = _neutral_link(database)
        return open_sandbox(self.limits, work_dir, lambda c: _attach_through(c, self.table, database, link)), link

    @cached_property
    def policy(self) -> QueryPolicy:
        return QueryPolicy.for_connection(self.con, self.table.table, self.table.table_names)

    @cached_property
    def insight(self) -> DataInsight:
        return DataInsight(self.con, self.table, self.policy, self.limits)

    def safe_answers(self, request: Request) -> Iterator[str]:
        """The replies as JSON lines, unless one carries one of this run's paths in any encoding (the net under the
        guard): that one is refused and nothing follows it. Each is serialised once, for the check and the reply."""
        known = request.sql if isinstance(request, Query) else ""
        for reply in self.answers(request):
            line = encode(reply)
            if self.host_paths.catches(line, known=known):
                print("refused a reply that carried a host path", file=sys.stderr)
                yield encode(Failure.of(QueryRejected(_LEAK_MESSAGE)))
                return
            yield line

    def answers(self, request: Request) -> Iterator[Reply]:
        """The reply to `request`; for a query without rows, the rows at once and then why there are none. All of it
        is done by one deadline, set when the request arrives."""
        deadline = self.limits.interrupt_deadline(time.monotonic())
        try:
            if isinstance(request, Describe):
                yield Profiled(self.insight.profile(deadline))
                return
            assert isinstance(request, Query), "after the boot, only queries and descriptions"
            result = run_query(self.con, request.sql, self.policy, self.limits, self.table, deadline, request.room)
        except SearchError as error:
            yield Failure.of(error)
            return
        except MemoryError:
            raise
        except Exception:
            traceback.print_exc()
            yield Failure.of(QueryFailed("クエリの実行中に内部エラーが起きました。"))
            return
        empty = not result.rows and bool(result.columns)
        yield Rows(result, hints_follow=empty)
        if empty:
            yield Hinted(self.insight.empty_answer(request.sql, deadline))


def _open_session(boot: Boot, replies: IO[bytes]) -> _Session | None:
    try:
        session = _Session(boot)
    except SearchError as error:
        _send(replies, Failure.of(error))
        return None
    except Exception:
        traceback.print_exc()
        _send(replies, Failure.of(DataUnavailable(f"データセット「{boot.table.file_name}」を読み込めません。")))
        return None
    _send(replies, Ready())
    return session


def _neutral_link(database: Path) -> Path | None:
    """A hard link to `database` in a fresh folder under /tmp, whose path says nothing of the host (DuckDB lists every
    attached file's absolute path, in duckdb_databases and the allowed_paths setting, whatever relative name or
    symbolic link it was given); None where none can be made (another file system)."""
    try:
        link = Path(tempfile.mkdtemp(prefix="dataset-", dir="/tmp")) / "data.duckdb"
    except OSError:
        return None
    try:
        os.link(database, link)
    except OSError:
        link.parent.rmdir()
        return None
    return link


def _attach_through(con: duckdb.DuckDBPyConnection, table: TableSpec, database: Path, link: Path | None) -> None:
    """Attach `database` through `link`, removed once DuckDB holds the file open; through its own path without one
    (the guard and the path net still stand before it)."""
    try:
        attach_dataset_file(con, table, link or database)
    finally:
        if link is not None:
            link.unlink(missing_ok=True)
            link.parent.rmdir()


def _limit_address_space(megabytes: int) -> None:
    """Turn a single giant allocation into a clean DuckDB error instead of a machine-wide squeeze."""
    limit = megabytes * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _send(replies: IO[bytes], message: Reply) -> None:
    _write_line(replies, encode(message))


def _write_line(replies: IO[bytes], line: str) -> None:
    replies.write(line.encode() + b"\n")
    replies.flush()


if __name__ == "__main__":
    main()
