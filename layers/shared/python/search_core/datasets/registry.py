"""The SQL datasets by name."""

from __future__ import annotations

from search_core.datasets.events import EVENTS
from search_core.datasets.spec import DatasetSpec
from search_core.datasets.stores import STORES

SQL_DATASETS: dict[str, DatasetSpec] = {spec.name: spec for spec in (EVENTS, STORES)}
