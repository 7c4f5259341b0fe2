"""The loaded form of a dataset's newest usable version, swapped in without a cold start."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Generic, TypeVar

from search_core.errors import DataUnavailable
from search_core.observability import logger, metrics
from search_core.settings import Settings
from search_core.storage.cache import DatasetCopy, LocalCopy, PreparedForm
from search_core.storage.source import resolve_source

Loaded = TypeVar("Loaded")


class LiveDataset(Generic[Loaded]):
    """Keeps `open_version(copy)` of the newest local copy that opened; a version that fails keeps the last one.

    The location is resolved on first use, so a missing setting becomes a response, not an import failure.
    """

    def __init__(
        self,
        name: str,
        file_name: str,
        settings: Settings,
        open_version: Callable[[LocalCopy], Loaded],
        close_version: Callable[[Loaded], None],
        prepared: PreparedForm | None = None,
    ) -> None:
        self.name = name
        self.file_name = file_name
        self.settings = settings
        self._open = open_version
        self._close = close_version
        self._prepared = prepared
        self._copy: DatasetCopy | None = None
        self._served: tuple[LocalCopy, Loaded] | None = None
        self._failed_version: str | None = None

    def current(self, fall_back: bool = True) -> Loaded:
        """The loaded newest version. A prepared copy that will not open (damaged, or written by another DuckDB)
        is given up for its source, so a bad prepared object never costs more than its CSV would."""
        latest = self._dataset_copy().current()
        if self._served is not None and latest.version in (self._served[0].version, self._failed_version):
            return self._served[1]
        started = time.perf_counter()
        try:
            fresh = self._open(latest)
        except DataUnavailable as error:
            if latest.prepared and fall_back:
                logger.warning("prepared copy unusable; serving the source", dataset=self.file_name,
                               reason=error.message)  # fmt: skip
                self._dataset_copy().refuse(latest)
                return self._source_instead()
            if self._served is None:
                raise
            self._failed_version = latest.version
            logger.warning("new data version unusable; serving the previous one", dataset=self.file_name,
                           reason=error.message)  # fmt: skip
            return self._served[1]
        metrics.add_metric(name="DataLoadTime", unit="Milliseconds", value=(time.perf_counter() - started) * 1000)
        self._replace(latest, fresh)
        return fresh

    def _source_instead(self) -> Loaded:
        try:
            return self.current(fall_back=False)
        except DataUnavailable:
            if self._served is None:
                raise
            return self._served[1]

    def served(self) -> Loaded | None:
        """What is being served, if anything (nothing is fetched)."""
        return None if self._served is None else self._served[1]

    def expire(self) -> None:
        """Check the source again on the next call, however recently it was checked."""
        if self._copy is not None:
            self._copy.expire()

    def close(self) -> None:
        if self._served is not None:
            self._close(self._served[1])
            self._served = None

    def _replace(self, latest: LocalCopy, fresh: Loaded) -> None:
        previous, self._served = self._served, (latest, fresh)
        if previous is not None:
            self._close(previous[1])
        self._dataset_copy().prune(keep=latest)
        metrics.add_metric(name="DataReloads", unit="Count", value=1)
        logger.info("dataset loaded", dataset=self.file_name, version=latest.version)

    def _dataset_copy(self) -> DatasetCopy:
        if self._copy is None:
            source = resolve_source(self.name, self.file_name, self.settings)
            self._copy = DatasetCopy(
                source, self.settings.cache_dir, self.settings.refresh_interval_seconds, prepared=self._prepared
            )
        return self._copy
