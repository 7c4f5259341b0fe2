"""Every bound on query execution but the byte budget: rows, SQL length, nesting and items, and the time and memory
derived in one place from the function's memory and timeout.

The byte budget an answer is cut to and its shares, the longest value a worker ships among them, are engine/budget.py's,
as is the marker that ends a value cut to fit.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from typing import Any

from search_core.engine.budget import MAX_CELL_CHARS

MAX_ROWS = 10
# The share of the timeout after which the worker interrupts DuckDB (the parent kills at the whole timeout).
_INTERRUPT_SHARE = 0.75
# The share of that time a failed query's error may take to be explained from the data (a value that would not
# convert): begun before the interrupt, it ends before the kill.
_EXPLAIN_SHARE = 0.25
# The share of DuckDB's memory a dataset may take when held in memory; a larger one is read from a DuckDB file.
_IN_MEMORY_DATA_SHARE = 0.25
# Texts whose checks and conditions a worker keeps (each costs memory of about twice its own length).
TEXTS_KEPT = 64
MAX_SQL_CHARS = 20_000
# Lists and structs nested deeper than this reach the agent as text: JSON that deep helps no one, and bounding it
# bounds the recursion that converts and measures values.
MAX_NESTING = 16
# Items kept of one list or struct: a thousand short values already fill a response.
MAX_ITEMS = 1_000

# Lambda gives CPU time in proportion to memory: one vCPU's worth at 1,769 MB (it may show more CPUs than that).
_MB_PER_VCPU = 1769
# What the parent process (Powertools, boto3, the response) needs besides the worker.
_PARENT_RESERVE_MB = 160
# DuckDB reserves far more address space than it touches (thread stacks, allocator arenas): measured about
# 730 MB of VmSize above VmRSS on an idle 2-thread connection.
_ADDRESS_SPACE_HEADROOM_MB = 1536


@dataclass(frozen=True)
class QueryLimits:
    """Bounds for one worker process and each query it runs."""

    timeout_seconds: float
    vcpus: float
    duckdb_memory_mb: int
    worker_rss_cap_mb: int
    worker_address_space_mb: int
    # CSVs this large are converted once into a DuckDB file rather than loaded into memory (see for_function).
    table_file_min_bytes: int
    max_rows: int = MAX_ROWS
    max_cell_chars: int = MAX_CELL_CHARS

    @property
    def threads(self) -> int:
        """DuckDB's threads: the whole vCPUs of the function's share, at least one."""
        return max(1, int(self.vcpus))

    @property
    def interrupt_seconds(self) -> float:
        """When the worker interrupts DuckDB: early enough that, should DuckDB not stop, the parent's kill at
        `timeout_seconds` still ends every query within the timeout.

        >>> QueryLimits.for_function(2048, 4.0).interrupt_seconds
        3.0
        """
        return self.timeout_seconds * _INTERRUPT_SHARE

    def interrupt_deadline(self, received: float) -> float:
        """When the worker interrupts DuckDB for a request received at `received` (both on time.monotonic()'s clock):
        everything done for that request (the query, then the hints of an empty answer) ends by then.

        >>> QueryLimits.for_function(2048, 4.0).interrupt_deadline(100.0)
        103.0
        """
        return received + self.interrupt_seconds

    @property
    def statement_milliseconds(self) -> int:
        """DuckDB's own bound on one statement (`max_execution_time`): the interrupt's time, which no statement of
        a request outlives, so the engine stops a runaway itself should the watchdog not fire.

        >>> QueryLimits.for_function(2048, 4.0).statement_milliseconds
        3000
        """
        return round(self.interrupt_seconds * 1000)

    @property
    def operator_memory_mb(self) -> int:
        """What one query's intermediates (sorts, hash tables) may take of DuckDB's memory: what data held in
        memory leaves, since only a CSV under `_IN_MEMORY_DATA_SHARE` of it is held there (`table_file_min_bytes`).

        >>> QueryLimits.for_function(1769, 5.0).operator_memory_mb
        603
        """
        return round(self.duckdb_memory_mb * (1 - _IN_MEMORY_DATA_SHARE))

    @property
    def recycle_rss_mb(self) -> int:
        """Resident memory above which a worker is replaced once a query is answered: the next query may need
        DuckDB's whole memory on top of it, and the worker is stopped past `worker_rss_cap_mb` (DuckDB frees a
        query's memory for itself but its allocator keeps the pages, so a worker's resident memory only grows).

        >>> QueryLimits.for_function(1769, 5.0).recycle_rss_mb
        805
        """
        return self.worker_rss_cap_mb - self.duckdb_memory_mb

    @property
    def explain_seconds(self) -> float:
        """How long a failed query's error may take to be explained from the data.

        >>> QueryLimits.for_function(2048, 4.0).explain_seconds
        0.75
        """
        return self.interrupt_seconds * _EXPLAIN_SHARE

    @classmethod
    def for_function(cls, memory_mb: int, timeout_seconds: float, cpu_count: int | None = None) -> QueryLimits:
        """Size CPU, threads and memory from the Lambda memory setting.

        >>> QueryLimits.for_function(2048, 5.0, cpu_count=2).threads
        1
        """
        share = vcpus(memory_mb, cpu_count)
        worker_cap = max(256, memory_mb - _PARENT_RESERVE_MB)
        duckdb_memory_mb = max(128, worker_cap // 2)
        return cls(
            timeout_seconds=timeout_seconds,
            vcpus=share,
            duckdb_memory_mb=duckdb_memory_mb,
            worker_rss_cap_mb=worker_cap,
            worker_address_space_mb=worker_cap + _ADDRESS_SPACE_HEADROOM_MB,
            # Measured at 1,000,000 events (490 MB of CSV; BENCHMARKS.md, "Load format"): in memory the worker
            # holds ~650 MB and its successor after a kill needs 4.3 s; from a file it holds ~80 MB and a successor
            # serves in ~0.2 s, for a first load 1.5 s (34%) slower. Below a quarter of DuckDB's memory limit
            # (201 MB at 1,769 MB) the faster first load wins.
            table_file_min_bytes=round(duckdb_memory_mb * 2**20 * _IN_MEMORY_DATA_SHARE),
        )

    @property
    def timeout_message(self) -> str:
        """What the agent reads when a query was stopped at its deadline, by DuckDB's interrupt or by the kill."""
        return self.stopped_at_timeout("クエリ", "条件を絞るか、より単純な問い合わせにしてください。")

    def stopped_at_timeout(self, what: str, advice: str) -> str:
        """The one sentence that names the timeout, for whatever was stopped (a query, a case search), then the
        way forward.

        >>> QueryLimits.for_function(1769, 5.0).stopped_at_timeout("検索", "語を加えてください。")
        '検索が制限時間（5 秒）内に終わらないため中断しました。語を加えてください。'
        """
        return f"{what}が制限時間（{self.timeout_seconds:g} 秒）内に終わらないため中断しました。{advice}"

    @property
    def profile_timeout_message(self) -> str:
        """What the agent reads when the data's profile could not be built by the deadline."""
        return "データの概要を制限時間内に作れませんでした。少し待ってから再試行してください。"

    @property
    def memory_message(self) -> str:
        """What the agent reads when a query was stopped for memory, by DuckDB or by the worker's supervisor: one
        message naming the one bound the agent can reason about, the worker's memory."""
        return (
            f"クエリがメモリ上限（{self.worker_rss_cap_mb} MB）を超えたため中断しました。"
            "巨大な文字列・結合・再帰を避け、条件を絞ってください。"
        )

    def holds_in_memory(self, csv_bytes: int) -> bool:
        """Whether a CSV this large is loaded into memory rather than converted into a DuckDB file.

        >>> QueryLimits.for_function(1769, 5.0).holds_in_memory(490_000_000)
        False
        """
        return csv_bytes < self.table_file_min_bytes

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def sql_too_long(sql: str) -> str | None:
    """What the agent reads when `sql` is longer than MAX_SQL_CHARS (checked before anything reaches a worker, and
    again by the guard), or None.

    >>> sql_too_long("x" * 20_001)
    'SQL が長すぎます（20001 文字）。20000 文字以内にしてください。'
    """
    if len(sql) <= MAX_SQL_CHARS:
        return None
    return f"SQL が長すぎます（{len(sql)} 文字）。{MAX_SQL_CHARS} 文字以内にしてください。"


def vcpus(memory_mb: int, cpu_count: int | None = None) -> float:
    """The CPU a function with `memory_mb` may use, in vCPUs: its share of CPU time, never more than the CPUs it sees.

    The one rule for everything sized by CPU (DuckDB's threads, whether a second process is worth starting early):
    Lambda reports two CPUs up to 3,008 MB, but 1,769 MB buys one vCPU's worth of time.

    >>> vcpus(1769, 2), vcpus(3538, 2), vcpus(10240, 6)
    (1.0, 2.0, 5.79)
    """
    cpus = cpu_count or len(os.sched_getaffinity(0)) or 1
    return round(min(float(cpus), memory_mb / _MB_PER_VCPU), 2)
