"""Publish a SQL dataset: validate its CSV, prepare its DuckDB file, upload both where the function looks.

    python -m search_core.kinds.sql_table.publish events data/events.csv s3://my-bucket/data/events.csv

For a data pipeline: nothing is uploaded unless the CSV matches its spec (problems are listed by line, exit 1).
The CSV goes to the given key and the prepared file beside it (<key>.duckdb), tagged with the CSV's ETag and the
spec's fingerprint, so the function serves it only while both still hold; otherwise it falls back to the CSV.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from search_core.catalogue import SQL_DATASETS
from search_core.datasets.spec import DatasetSpec
from search_core.engine.prepare import InvalidData, Prepared, prepare_table
from search_core.kinds.sql_table.service import prepared_form
from search_core.storage import s3
from search_core.storage.source import DataSource


@dataclass(frozen=True)
class ReadyToUpload:
    """A CSV that matched its spec, and the DuckDB file prepared from it."""

    spec: DatasetSpec
    csv_path: Path
    prepared_path: Path
    prepared: Prepared


@dataclass(frozen=True)
class Published:
    csv_key: str
    prepared_key: str
    prepared: Prepared


def prepare_upload(spec: DatasetSpec, csv_path: Path, work_dir: Path) -> ReadyToUpload:
    """Check `csv_path` against `spec` (raising InvalidData) and prepare its DuckDB file in `work_dir`."""
    prepared_path = work_dir / f"{spec.name}-prepared.duckdb"
    return ReadyToUpload(spec, csv_path, prepared_path, prepare_table(spec, csv_path, prepared_path))


def upload(ready: ReadyToUpload, bucket: str, key: str) -> Published:
    """Upload the CSV to `key`, then its prepared file beside it, tagged with the CSV's new ETag."""
    form = prepared_form(ready.spec)
    csv_etag = s3.upload(bucket, key, ready.csv_path)
    s3.upload(bucket, form.key(key), ready.prepared_path, form.metadata(csv_etag))
    return Published(key, form.key(key), ready.prepared)


def publish(spec: DatasetSpec, csv_path: Path, bucket: str, key: str) -> Published:
    """Prepare `csv_path` (raising InvalidData before any upload), then upload the CSV and its prepared file."""
    with tempfile.TemporaryDirectory() as work:
        return upload(prepare_upload(spec, csv_path, Path(work)), bucket, key)


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m search_core.kinds.sql_table.publish",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("dataset", choices=sorted(SQL_DATASETS), help="the dataset's name in the catalogue")
    parser.add_argument("csv", type=Path, help="the CSV to check, prepare and upload")
    parser.add_argument("uri", help="s3://bucket/key where the CSV goes (the template's <Name>Key)")
    args = parser.parse_args()
    source = DataSource.parse(args.csv.name, args.uri)
    if source.bucket is None or source.key is None:
        sys.exit("the destination must be s3://bucket/key")
    if not args.csv.is_file():
        sys.exit(f"{args.csv}: no such file")
    try:
        done = publish(SQL_DATASETS[args.dataset], args.csv, source.bucket, source.key)
    except InvalidData as error:
        sys.exit(str(error))
    except Exception as error:  # S3's own errors, whole: the operator needs their detail, not a traceback
        sys.exit(f"upload to s3://{source.bucket}/{source.key} failed: {error}")
    print(f"{done.prepared.rows:,} rows checked and prepared in {done.prepared.seconds:.1f} s; uploaded "
          f"s3://{source.bucket}/{done.csv_key} and s3://{source.bucket}/{done.prepared_key} "
          f"({done.prepared.bytes:,} bytes)")  # fmt: skip


if __name__ == "__main__":
    main()
