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
    """A downloaded (or local) version of a dataset; `prepared` when it is the prepared form, not the source."""

    path: Path
    version: str
    prepared: bool = False

    def derived_file(self, folder: Path, stem: str) -> Path:
        """Where a DuckDB file made from this version goes: one per version, named after a hash of it.

        >>> LocalCopy(Path("events.csv"), '"abc"').derived_file(Path("/tmp"), "events").name
        'events-6cc43f858fbb7633.duckdb'
        """
        return folder / f"{stem}-{hashlib.sha256(self.version.encode()).hexdigest()[:16]}.duckdb"


@dataclass(frozen=True)
class PreparedForm:
    """A prepared copy of an S3 object published beside it, at its key plus `suffix`, with S3 metadata naming the
    ETag of the object it was made from (`source-etag`) and `fingerprint` (what else it depends on).

    >>> PreparedForm(".duckdb", "f00d").accepts('"e1"', {"source-etag": '"e1"', "fingerprint": "f00d"})
    True
    """

    suffix: str
    fingerprint: str

    def key(self, source_key: str) -> str:
        return source_key + self.suffix

    def metadata(self, source_etag: str) -> dict[str, str]:
        """What the publisher writes on the prepared object."""
        return {"source-etag": source_etag, "fingerprint": self.fingerprint}

    def accepts(self, source_etag: str, metadata: dict[str, str]) -> bool:
        return metadata == self.metadata(source_etag)


def _prepared_version(etag: str) -> str:
    """A prepared object's version, never equal to its source's (whose ETag it could share were the bytes equal)."""
    return f"prepared {etag}"


class DatasetCopy:
    """Serves the newest copy it could get: a failed refresh logs and keeps the copy it has.

    Between checks the warm path makes no call at all; a check costs one HEAD request for S3 (one stat for a
    local file), and only a changed ETag downloads the object again. With a `prepared` form, the check HEADs both
    objects and the prepared one is downloaded when it was made from the source as it is now; otherwise (missing,
    stale, or made for another spec or DuckDB release) the source itself.
    """

    def __init__(
        self,
        source: DataSource,
        cache_dir: Path,
        refresh_interval: float,
        clock: Callable[[], float] = time.monotonic,
        prepared: PreparedForm | None = None,
    ) -> None:
        self.source = source
        self.cache_dir = cache_dir
        self.refresh_interval = refresh_interval
        self.prepared = prepared
        self._refused: set[str] = set()  # prepared versions that would not open: their source is served instead
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

    def expire(self) -> None:
        """Check the source on the next `current()`, however recently it was checked."""
        self._checked_at = float("-inf")

    def refuse(self, copy: LocalCopy) -> None:
        """Give up on a prepared copy that would not open, for good: the next `current()` fetches the source."""
        self._refused.add(copy.version)
        self._copy = None

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
        started = time.perf_counter()
        fetched = self._fetch_chosen(self.prepared) if self.prepared is not None else self._fetch_source()
        if fetched is not self._copy:  # the checks and the download, not a check that found nothing new
            elapsed = (time.perf_counter() - started) * 1000
            metrics.add_metric(name="DataFetchTime", unit="Milliseconds", value=elapsed)
        return fetched

    def _fetch_source(self) -> LocalCopy:
        bucket, key = self._location()
        if self._copy is not None:
            etag = s3.head_etag(bucket, key, self.source.file_name)
            if current := self._current_at(etag):
                return current
        return self._download(key, None, ".csv", prepared=False)

    def _fetch_chosen(self, prepared: PreparedForm) -> LocalCopy:
        """The prepared object if it matches the source as it is now, else the source."""
        bucket, key = self._location()
        source_etag = s3.head(bucket, key, self.source.file_name).etag
        found = s3.head_if_present(bucket, prepared.key(key), self.source.file_name)
        if (
            found is not None
            and _prepared_version(found.etag) not in self._refused
            and prepared.accepts(source_etag, found.metadata)
        ):
            if current := self._current_at(_prepared_version(found.etag)):
                return current
            return self._download(prepared.key(key), found.etag, ".duckdb", prepared=True)
        if current := self._current_at(source_etag):
            return current
        if found is not None:
            logger.warning("prepared object is stale, refused or for another spec; serving the source",
                           dataset=self.source.file_name)  # fmt: skip
        return self._download(key, source_etag, ".csv", prepared=False)

    def _download(self, key: str, etag: str | None, suffix: str, prepared: bool) -> LocalCopy:
        bucket, _ = self._location()
        self.cache_dir.mkdir(parents=True, exist_ok=True)
        destination = self.cache_dir / f"{self._stem()}-{time.time_ns()}{suffix}"
        got = s3.download(bucket, key, destination, self.source.file_name, if_match=etag)
        logger.info("dataset downloaded", dataset=self.source.file_name, version=got, prepared=prepared)
        return LocalCopy(destination, _prepared_version(got) if prepared else got, prepared)

    def _current_at(self, version: str) -> LocalCopy | None:
        """The copy in hand if it is `version`: nothing to download."""
        return self._copy if self._copy is not None and self._copy.version == version else None

    def _location(self) -> tuple[str, str]:
        assert self.source.bucket is not None and self.source.key is not None
        return self.source.bucket, self.source.key

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
