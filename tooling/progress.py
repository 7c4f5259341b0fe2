"""Showing long work as it goes (preparing 100,000 decisions takes ~20 minutes): on a terminal, a tqdm bar per stage
with what is done, the rate and, once the total is known, the time left; in a pipeline or a log, one line per stage
as it ends, with its count and seconds.

    with StageProgress() as progress:
        prepare(source, target, progress=progress)

The layer's `prepare` only calls a Progress (search_core/fulltext/progress.py), so Lambda never imports tqdm.
"""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import Any, TextIO

from tqdm import tqdm


class StageProgress:
    """A Progress (search_core/fulltext/progress.py) writing to `stream` (stderr): bars when it is a terminal, else a
    line per stage."""

    def __init__(self, stream: TextIO | None = None, bars: bool | None = None) -> None:
        self.stream = stream or sys.stderr
        self.bars = self.stream.isatty() if bars is None else bars
        self._stage: str | None = None  # the stage under way, or the one that just ended (told more of it, ignored)
        self._ended = True
        self._started = 0.0
        self._bar: Any = None  # tqdm has no type hints

    def __call__(self, stage: str, done: int, total: int | None) -> None:
        if stage != self._stage:
            self._end_unfinished()
            self._begin(stage, total)
        elif self._ended:
            return
        if self._bar is not None:
            self._bar.total = total
            self._bar.update(done - self._bar.n)
        if total is not None and done >= total:
            self._end(done)

    def __enter__(self) -> StageProgress:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self._end_unfinished()

    def _begin(self, stage: str, total: int | None) -> None:
        self._stage, self._ended, self._started = stage, False, time.monotonic()
        if self.bars:
            self._bar = tqdm(desc=stage, total=total, unit="", unit_scale=True, file=self.stream, dynamic_ncols=True)

    def _end(self, done: int) -> None:
        self._ended = True
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        else:
            print(f"{self._stage}: {done:,} in {time.monotonic() - self._started:.1f} s", file=self.stream, flush=True)

    def _end_unfinished(self) -> None:
        """A stage left without its end (the work failed): its bar closed as it stands, no line claiming it ended."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        self._ended = True
