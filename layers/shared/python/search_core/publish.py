"""Publish a SQL dataset: validate its CSV, prepare its DuckDB file, upload both where the function looks.

    python -m search_core.publish events data/events.csv s3://my-bucket/data/events.csv

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
from search_core.sql.prepare import InvalidData, Prepared, prepare_table
from search_core.sql_search import prepared_form
from search_core.storage import s3
from search_core.storage.source import DataSource


@dataclass(frozen=True)
class Published:
    csv_key: str
    prepared_key: str
    prepared: Prepared


def publish(spec: DatasetSpec, csv_path: Path, bucket: str, key: str) -> Published:
    """Prepare `csv_path` (raising InvalidData before any upload), then upload the CSV and its prepared file."""
    form = prepared_form(spec)
    with tempfile.TemporaryDirectory() as work:
        prepared_path = Path(work) / f"{spec.name}-prepared.duckdb"
        prepared = prepare_table(spec, csv_path, prepared_path)
        csv_etag = s3.upload(bucket, key, csv_path)
        s3.upload(bucket, form.key(key), prepared_path, form.metadata(csv_etag))
    return Published(key, form.key(key), prepared)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dataset", choices=sorted(SQL_DATASETS))
    parser.add_argument("csv", type=Path)
    parser.add_argument("uri", help="s3://bucket/key of the CSV")
    args = parser.parse_args()
    source = DataSource.parse(args.csv.name, args.uri)
    if source.bucket is None or source.key is None:
        sys.exit("the destination must be s3://bucket/key")
    try:
        done = publish(SQL_DATASETS[args.dataset], args.csv, source.bucket, source.key)
    except InvalidData as error:
        sys.exit(str(error))
    print(f"{done.prepared.rows:,} rows checked and prepared in {done.prepared.seconds:.1f} s; uploaded "
          f"s3://{source.bucket}/{done.csv_key} and s3://{source.bucket}/{done.prepared_key} "
          f"({done.prepared.bytes:,} bytes)")  # fmt: skip


if __name__ == "__main__":
    main()
