"""Interrupt a DuckDB query that runs past its deadline, from one long-lived thread.

A `threading.Timer` per query cost a thread start and a wake-up (~0.25 ms, a tenth of a warm call); arming this
watchdog costs a lock, and it is woken only when a deadline comes sooner than the one it already sleeps towards.
"""

from __future__ import annotations

import itertools
import math
import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Protocol

import duckdb

from search_core.errors import QueryAborted
from search_core.observability import metrics


class Interruptible(Protocol):
    def interrupt(self) -> None: ...


class Watchdog:
    """Calls `interrupt()` on a connection whose deadline passes while its block is still running."""

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._armed: dict[int, tuple[float, Interruptible]] = {}
        self._tokens = itertools.count()
        self._sleeping_until = math.inf
        self._thread: threading.Thread | None = None

    def deadline(self, connection: Interruptible, seconds: float) -> AbstractContextManager[None]:
        """Interrupt `connection` if the block runs past `seconds` from now; never once the block has left.

        >>> import time
        >>> class Connection:
        ...     interrupted = False
        ...     def interrupt(self): self.interrupted = True
        >>> slow, quick = Connection(), Connection()
        >>> with WATCHDOG.deadline(slow, 0.05): time.sleep(0.2)
        >>> with WATCHDOG.deadline(quick, 0.05): pass
        >>> time.sleep(0.1); slow.interrupted, quick.interrupted
        (True, False)
        """
        return self.until(connection, time.monotonic() + seconds)

    @contextmanager
    def until(self, connection: Interruptible, at: float) -> Iterator[None]:
        """Interrupt `connection` if the block is still running at `at` (time.monotonic()); never once it has left."""
        token = self._arm(connection, at)
        try:
            yield
        finally:
            # Interrupts happen under this lock, so once it is taken here no interrupt can still be on its way.
            with self._lock:
                self._armed.pop(token, None)

    def _arm(self, connection: Interruptible, at: float) -> int:
        with self._lock:
            token = next(self._tokens)
            self._armed[token] = (at, connection)
            if self._thread is None:
                self._thread = threading.Thread(target=self._watch, name="query-watchdog", daemon=True)
                self._thread.start()
            elif at < self._sleeping_until:
                self._lock.notify()
            return token

    def _watch(self) -> None:
        with self._lock:
            while True:
                now = time.monotonic()
                for token, (at, connection) in list(self._armed.items()):
                    if at <= now:
                        connection.interrupt()
                        del self._armed[token]
                self._sleeping_until = min((at for at, _ in self._armed.values()), default=math.inf)
                self._lock.wait(None if self._sleeping_until == math.inf else self._sleeping_until - now)


# One thread serves every connection of the process (a worker has one).
WATCHDOG = Watchdog()


@contextmanager
def bounded(connection: duckdb.DuckDBPyConnection, seconds: float, message: str) -> Iterator[float]:
    """Bound one request on `connection` by `seconds`: DuckDB is interrupted then, and the code checking candidates
    stops at the deadline it is given; either way the agent gets `message`."""
    try:
        with WATCHDOG.deadline(connection, seconds):
            yield time.monotonic() + seconds
    except (duckdb.InterruptException, TimeoutError):
        metrics.add_metric(name="AbortedQueries", unit="Count", value=1)
        raise QueryAborted(message) from None
