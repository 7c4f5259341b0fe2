"""A local copy of one dataset, kept in /tmp across warm invocations and re-validated at most every N seconds."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from search_core.errors import DataUnavailable
from search_core.observability import logger, metrics
from search_core.storage import s3
from search_core.storage.source import DataSource


@dataclass(frozen=True)
class LocalCopy:
    path: Path
    version: str

    def derived_file(self, folder: Path, stem: str) -> Path:
        """Where a DuckDB file made from this version goes: one per version, named after a hash of it.

        >>> LocalCopy(Path("events.csv"), '"abc"').derived_file(Path("/tmp"), "events").name
        'events-6cc43f858fbb7633.duckdb'
        """
        return folder / f"{stem}-{hashlib.sha256(self.version.encode()).hexdigest()[:16]}.duckdb"


class DatasetCopy:
    """Serves the newest copy it could get: a failed refresh logs and keeps the copy it has.

    Between checks the warm path makes no call at all; a check costs one HEAD request for S3 (one stat for a
    local file), and only a changed ETag downloads the object again.
    """

    def __init__(
        self,
        source: DataSource,
        cache_dir: Path,
        refresh_interval: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.source = source
        self.cache_dir = cache_dir
        self.refresh_interval = refresh_interval
        self._clock = clock
        self._copy: LocalCopy | None = None
        self._checked_at = float("-inf")

    def current(self) -> LocalCopy:
        """The copy to serve; raises DataUnavailable only when there has never been one."""
        now = self._clock()
        if self._copy is not None and now - self._checked_at < self.refresh_interval:
            return self._copy
        self._checked_at = now
        try:
            self._copy = self._fetch()
        except DataUnavailable as error:
            if self._copy is None:
                raise
            logger.warning(
                "dataset refresh failed; serving the cached copy",
                dataset=self.source.file_name,
                reason=error.message,
                version=self._copy.version,
            )
        return self._copy

    def prune(self, keep: LocalCopy) -> None:
        """Delete downloaded copies other than `keep` (never a local source file)."""
        if self.source.path is not None:
            return
        for stale in self.cache_dir.glob(f"{self._stem()}-*"):
            if stale != keep.path:
                stale.unlink(missing_ok=True)

    def _fetch(self) -> LocalCopy:
        if self.source.path is not None:
            return self._stat_local(self.source.path)
        assert self.source.bucket is not None and self.source.key is not None
        if self._copy is not None:
            etag = s3.head_etag(self.source.bucket, self.source.key, self.source.file_name)
            if etag == self._copy.version:
                return self._copy
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        destination = self.cache_dir / f"{self._stem()}-{time.time_ns()}.csv"
        started = time.perf_counter()
        etag = s3.download(self.source.bucket, self.source.key, destination, self.source.file_name)
        metrics.add_metric(name="DataFetchTime", unit="Milliseconds", value=(time.perf_counter() - started) * 1000)
        logger.info("dataset downloaded", dataset=self.source.file_name, version=etag)
        return LocalCopy(destination, etag)

    def _stat_local(self, path: Path) -> LocalCopy:
        try:
            stat = path.stat()
        except OSError:
            raise DataUnavailable(f"データセット「{self.source.file_name}」のファイルが見つかりません。") from None
        return LocalCopy(path, f"{stat.st_mtime_ns}-{stat.st_size}")

    def _stem(self) -> str:
        # Two datasets with the same file name in different buckets must not share cache files.
        origin = f"{self.source.bucket}/{self.source.key}".encode()
        return f"{Path(self.source.file_name).stem}-{hashlib.sha256(origin).hexdigest()[:12]}"
