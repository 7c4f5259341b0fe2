"""Publish every dataset of the catalogue to a bucket, as `make upload-data` does: each SQL dataset's CSV with its
prepared DuckDB file beside it, and the case-law and statute databases prepared."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

from tooling import DATA_DIR

from search_core.catalogue import ACTION_GROUPS, ActionGroup, CaseLaw, SqlTable, Statutes
from search_core.datasets.spec import DatasetSpec
from search_core.fulltext.progress import Progress, no_progress
from search_core.kinds.case_law.store.build import prepare
from search_core.kinds.sql_table.publish import prepare_upload, upload
from search_core.kinds.statutes.store.build import prepare as prepare_statutes
from search_core.storage import s3


def publish_catalogue(
    bucket: str, prefix: str = "data/", sources: Mapping[str, Path] | None = None, progress: Progress = no_progress
) -> Iterator[str]:
    """Upload each dataset (from `sources[name]`, else the sample in data/) under `prefix`, the template's default
    keys with prefix data/; yield a line per dataset saying what was uploaded. `progress` is told how preparing the
    case-law database goes (tooling/progress.py shows it).

    Every dataset is checked and prepared before anything is uploaded: a CSV that does not match its spec raises
    InvalidData and leaves the bucket as it was.
    """
    with tempfile.TemporaryDirectory() as work:
        uploads = [
            _prepare(group, (sources or {}).get(group.data), Path(work), progress) for group in ACTION_GROUPS.values()
        ]
        for upload_one in uploads:
            yield upload_one(bucket, prefix)


def _prepare(group: ActionGroup, source: Path | None, work: Path, progress: Progress) -> Callable[[str, str], str]:
    """Check and prepare `group`'s data now, as its kind publishes it; return what uploads it and says what it did."""
    source = source or DATA_DIR / group.data_file
    match group.kind:
        case SqlTable(spec):
            return _prepare_table(group, spec, source, work)
        case CaseLaw():
            return _prepare_cases(group, source, work, progress)
        case Statutes():
            return _prepare_statutes(group, source, work, progress)


def _prepare_table(group: ActionGroup, spec: DatasetSpec, source: Path, work: Path) -> Callable[[str, str], str]:
    ready = prepare_upload(spec, source, work)

    def upload_table(bucket: str, prefix: str) -> str:
        done = upload(ready, bucket, prefix + group.data_file)
        return (f"{group.data}: {done.prepared.rows:,} rows checked; s3://{bucket}/{done.csv_key} and "
                f"s3://{bucket}/{done.prepared_key} ({done.prepared.bytes:,} bytes)")  # fmt: skip

    return upload_table


def _prepare_cases(group: ActionGroup, source: Path, work: Path, progress: Progress) -> Callable[[str, str], str]:
    stats = prepare(source, work / _published(group), progress=progress)
    said = (
        f"{stats.decisions:,} decisions prepared ({stats.skipped} skipped, "
        f"{stats.searched_in_part} searched only in part)"
    )
    return _uploading(group, work, said)


def _prepare_statutes(group: ActionGroup, source: Path, work: Path, progress: Progress) -> Callable[[str, str], str]:
    stats = prepare_statutes(source, work / _published(group), progress=progress)
    said = (
        f"{stats.laws:,} laws, {stats.versions:,} versions, {stats.articles:,} articles prepared "
        f"({stats.skipped} entries skipped)"
    )
    return _uploading(group, work, said)


def _published(group: ActionGroup) -> str:
    return group.published_file or group.data_file


def _uploading(group: ActionGroup, work: Path, said: str) -> Callable[[str, str], str]:
    """What uploads a prepared database from `work` and says what it did (`said`, then where it went)."""

    def upload_database(bucket: str, prefix: str) -> str:
        s3.upload(bucket, prefix + _published(group), work / _published(group))
        return f"{group.data}: {said}; s3://{bucket}/{prefix}{_published(group)}"

    return upload_database
