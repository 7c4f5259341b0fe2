"""The parent's side of the worker: start it, send one query, and enforce the hard limits from outside.

DuckDB's own bounds (memory_limit, an interrupt at 3/4 of the timeout) stop most runaway queries with a clean error
inside the worker. What they miss, the client stops: a worker still busy at the timeout or over its memory cap is
killed, the agent is told why, and the next query starts a fresh worker from the same local copy of the data.
"""

from __future__ import annotations

import glob
import os
import select
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

from search_core.advice.hints import EmptyAnswer
from search_core.advice.profile import TableProfile
from search_core.engine.budget import REPLY_BUDGET_BYTES
from search_core.engine.limits import QueryLimits
from search_core.engine.table import TableSpec
from search_core.errors import DataUnavailable, QueryAborted
from search_core.worker.protocol import (
    Boot,
    Describe,
    Failure,
    Hinted,
    Profiled,
    Query,
    Ready,
    Reply,
    Request,
    Rows,
    decode_reply,
    encode,
)
from search_core.worker.result import QueryResult

# The worker inherits only what Python needs to start: no AWS credentials, no secrets.
_INHERITED_ENV = ("PATH", "LD_LIBRARY_PATH", "LANG", "LC_ALL", "TZ")
_POLL_SECONDS = 0.01
_BOOT_TIMEOUT_SECONDS = 120.0
# The worker bounds its replies to REPLY_BUDGET_BYTES of JSON; anything far beyond that is a fault, not an answer.
_MAX_REPLY_BYTES = 8 * REPLY_BUDGET_BYTES
_PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")
# The folder that holds search_core (a layer's python/ folder): the worker imports the same code.
_PACKAGE_ROOT = Path(__file__).resolve().parents[2]


class WorkerGone(Exception):
    """The worker exited or was killed; the caller decides what the agent is told."""


class WorkerLauncher:
    """Starts the worker processes of one work folder, and on request one ahead of need.

    A worker imports Python and DuckDB (~150 ms) before it waits for its boot line, so one started before the
    data is fetched does that while the download runs, and loads the moment the file arrives. That needs a
    second vCPU's worth of time (`limits.vcpus`): on two CPUs it takes a cold start's first answer from 928 to
    703 ms, on one (Lambda's time share up to 1,769 MB) from 822 to 927 ms. So below two vCPUs nothing is started
    ahead.
    """

    def __init__(self, work_dir: Path, vcpus: float) -> None:
        self.work_dir = work_dir
        self.vcpus = vcpus
        self._spare: subprocess.Popen[bytes] | None = None

    @property
    def spare_pid(self) -> int | None:
        """The worker started ahead and not yet taken, if any is running."""
        return self._spare.pid if self._spare is not None and self._spare.poll() is None else None

    def start_ahead(self) -> None:
        if self.vcpus >= 2 and (self._spare is None or self._spare.poll() is not None):
            self._spare = self._spawn()

    def take(self) -> subprocess.Popen[bytes]:
        spare, self._spare = self._spare, None
        return spare if spare is not None and spare.poll() is None else self._spawn()

    def close(self) -> None:
        if self._spare is not None:
            _stop(self._spare)
            self._spare = None

    def _spawn(self) -> subprocess.Popen[bytes]:
        self.work_dir.mkdir(parents=True, exist_ok=True)
        return subprocess.Popen(
            [sys.executable, "-s", "-m", "search_core.worker.process"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=_worker_env(self.work_dir),
            cwd=self.work_dir,
        )


class _Process:
    """One running worker, booted with `boot`."""

    def __init__(self, proc: subprocess.Popen[bytes], boot: Boot) -> None:
        self._limits = boot.limits
        self._proc = proc
        self._buffer = b""
        # Whether a reply was waited for long enough to look at memory: a quick query pays no /proc read.
        self.waited = False
        try:
            reply = self.exchange(boot, time.monotonic() + _BOOT_TIMEOUT_SECONDS)
            self.waited = False
        except WorkerGone:
            raise DataUnavailable(
                f"データセット「{boot.table.file_name}」を読み込めません（読み込み処理が異常終了しました）。"
            ) from None
        if not isinstance(reply, Ready):
            self.stop()
            raise reply.error() if isinstance(reply, Failure) else DataUnavailable("想定外の応答です。")

    @property
    def alive(self) -> bool:
        return self._proc.poll() is None

    @property
    def pid(self) -> int:
        return self._proc.pid

    def exchange(self, message: Request, deadline: float) -> Reply:
        """Send one message and wait for its reply until `deadline`; kill the worker if it overruns time or memory."""
        assert self._proc.stdin is not None
        try:
            self._proc.stdin.write(encode(message).encode() + b"\n")
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError):
            self.stop()
            raise WorkerGone("exited") from None
        return self.receive(deadline)

    def receive(self, deadline: float) -> Reply:
        """The next reply, waiting until `deadline`; kill the worker if it overruns time or memory."""
        assert self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        while b"\n" not in self._buffer:
            if time.monotonic() > deadline:
                self.stop()
                raise WorkerGone("timeout")
            readable, _, _ = select.select([fd], [], [], _POLL_SECONDS)
            if readable:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    self.stop()
                    raise WorkerGone("exited")
                self._buffer += chunk
                if len(self._buffer) > _MAX_REPLY_BYTES:
                    self.stop()
                    raise WorkerGone("memory")
            # Memory is checked only while the worker is busy: a quick query pays no /proc read.
            elif self._rss_bytes() > self._limits.worker_rss_cap_mb * 1024 * 1024:
                self.stop()
                raise WorkerGone("memory")
            else:
                self.waited = True
        line, _, self._buffer = self._buffer.partition(b"\n")
        return decode_reply(line)

    def _rss_bytes(self) -> int:
        try:
            with open(f"/proc/{self._proc.pid}/statm", "rb") as statm:
                return int(statm.read().split()[1]) * _PAGE_BYTES
        except (OSError, IndexError, ValueError):
            return 0

    def retire_if_swollen(self) -> None:
        """Stop a worker that was busy and keeps more memory than the next query could work beside (the next call
        starts a fresh one)."""
        if self.waited and self._rss_bytes() > self._limits.recycle_rss_mb * 1024 * 1024:
            self.stop()
        self.waited = False

    def stop(self) -> None:
        _stop(self._proc)


class QueryWorker:
    """Runs queries for one version of one table in a supervised worker process.

    The worker boots when this object is created (raising DataUnavailable if the data is unusable) and is
    restarted from the same files whenever it had to be killed. It serves `database`, a DuckDB file, when that
    exists (a prepared file); otherwise it loads `csv_path`, into `database` when given (the first worker converts
    the CSV and every successor reopens the file, which closing then deletes), else into memory.
    """

    def __init__(
        self,
        table: TableSpec,
        limits: QueryLimits,
        work_dir: Path,
        *,
        csv_path: Path | None = None,
        database: Path | None = None,
        launcher: WorkerLauncher | None = None,
    ) -> None:
        self.limits = limits
        self.restarts = 0
        self._boot = Boot(
            table=table.table_spec(),
            limits=limits,
            work_dir=str(work_dir),
            csv_path=str(csv_path) if csv_path else None,
            database=str(database) if database else None,
            # The paths of the function's side, which answers must not carry: its code folder and interpreter.
            host_paths=(os.getcwd(), sys.prefix, str(_PACKAGE_ROOT)),
        )
        self._made_file = database if csv_path is not None else None
        self._launcher = launcher or WorkerLauncher(work_dir, limits.vcpus)
        self._process: _Process | None = None
        try:
            self._process = self._start()
        except DataUnavailable:
            self._remove_made_file()
            raise

    @property
    def pid(self) -> int | None:
        """The running worker's process id (None between a kill and the next query's restart)."""
        return self._process.pid if self._process is not None and self._process.alive else None

    def query(self, sql: str, room: int = REPLY_BUDGET_BYTES) -> QueryResult:
        """The result of `sql`, its rows cut by the worker to take at most `room` bytes in the answer's body."""
        reply, deadline = self._ask(Query(sql, room))
        if not isinstance(reply, Rows):
            raise QueryAborted(self._abort_message("exited"))
        result = replace(reply.result, why_empty=self._why_empty(deadline)) if reply.hints_follow else reply.result
        self._retire_if_swollen()
        return result

    def _why_empty(self, deadline: float) -> EmptyAnswer:
        """The hints that follow an answer without rows, if they come by the query's deadline; else the worker is
        stopped (and replaced on the next call) and the empty answer stands without them."""
        assert self._process is not None
        try:
            reply = self._process.receive(deadline)
        except WorkerGone:
            return EmptyAnswer()
        if isinstance(reply, Failure) and reply.retiring:
            self._process.stop()
        return reply.why if isinstance(reply, Hinted) else EmptyAnswer()

    def describe(self) -> TableProfile:
        """The profile of this version of the data (advice/profile.py)."""
        reply, _ = self._ask(Describe())
        if not isinstance(reply, Profiled):
            raise QueryAborted(self._abort_message("exited"))
        self._retire_if_swollen()
        return reply.profile

    def _ask(self, request: Request) -> tuple[Reply, float]:
        """The worker's reply to `request`, and the deadline it was given: the timeout counts from when a running
        worker has the request, so that starting a replacement first does not shorten the query's time."""
        process = self._running_process()
        deadline = time.monotonic() + self.limits.timeout_seconds
        try:
            reply = process.exchange(request, deadline)
        except WorkerGone as gone:
            raise QueryAborted(self._abort_message(str(gone))) from None
        if isinstance(reply, Failure):
            if reply.retiring:  # wait for it to go, so that the next call starts a fresh worker
                process.stop()
            raise reply.error()
        return reply, deadline

    def _retire_if_swollen(self) -> None:
        if self._process is not None:
            self._process.retire_if_swollen()

    def revive(self) -> None:
        """Start a worker now if the one serving is gone (after a SnapStart restore), not on the next query."""
        self._running_process()

    def close(self) -> None:
        if self._process is not None:
            self._process.stop()
            self._process = None
        self._remove_made_file()

    def _start(self) -> _Process:
        return _Process(self._launcher.take(), self._boot)

    def _running_process(self) -> _Process:
        if self._process is None or not self._process.alive:
            self.restarts += 1
            self._process = self._start()
        return self._process

    def _remove_made_file(self) -> None:
        """The file made from the CSV and whatever its writer left beside it (a partial file, a write-ahead log)."""
        if self._made_file is not None:
            for path in self._made_file.parent.glob(glob.escape(self._made_file.name) + "*"):
                path.unlink(missing_ok=True)

    def _abort_message(self, reason: str) -> str:
        if reason == "timeout":
            return self.limits.timeout_message
        if reason == "memory":
            return self.limits.memory_message
        return "クエリの実行中に処理が異常終了しました。より単純な SQL で再試行してください。"


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait()
    for stream in (proc.stdin, proc.stdout):
        if stream is not None:
            stream.close()


def _worker_env(work_dir: Path) -> dict[str, str]:
    env = {name: os.environ[name] for name in _INHERITED_ENV if name in os.environ}
    env.update(
        PYTHONPATH=os.pathsep.join([str(_PACKAGE_ROOT), *(os.path.abspath(p) for p in sys.path if p)]),
        HOME=str(work_dir),
        TMPDIR=str(work_dir),
        PYTHONDONTWRITEBYTECODE="1",
    )
    return env
