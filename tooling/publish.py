"""Publish every dataset of the catalogue to a bucket, as `make upload-data` does: each SQL dataset's CSV with its
prepared DuckDB file beside it, and the case-law database prepared."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

from tooling import DATA_DIR

from search_core.cases.prepare import prepare
from search_core.catalogue import ACTION_GROUPS, ActionGroup
from search_core.publish import publish
from search_core.storage import s3


def publish_catalogue(bucket: str, prefix: str = "data/", sources: Mapping[str, Path] | None = None) -> Iterator[str]:
    """Upload each dataset (from `sources[name]`, else the sample in data/) under `prefix`, the template's default
    keys with prefix data/; yield a line per dataset saying what was uploaded."""
    for group in ACTION_GROUPS.values():
        source = (sources or {}).get(group.data) or DATA_DIR / group.data_file
        key = prefix + (group.published_file or group.data_file)
        yield _publish_group(group, source, bucket, key)


def _publish_group(group: ActionGroup, source: Path, bucket: str, key: str) -> str:
    if group.spec is not None:
        done = publish(group.spec, source, bucket, key)
        return (f"{group.data}: {done.prepared.rows:,} rows checked; s3://{bucket}/{done.csv_key} and "
                f"s3://{bucket}/{done.prepared_key} ({done.prepared.bytes:,} bytes)")  # fmt: skip
    with tempfile.TemporaryDirectory() as work:
        prepared = Path(work) / (group.published_file or group.data_file)
        stats = prepare(source, prepared)
        s3.upload(bucket, key, prepared)
    return f"{group.data}: {stats.decisions:,} decisions prepared ({stats.skipped} skipped); s3://{bucket}/{key}"
