"""make upload-data BUCKET=...: prepare the cases DB and upload the three datasets where template.yaml looks.

    .venv/bin/python scripts/upload_data.py --bucket my-bucket [--cases cases.db] [--events ...] [--stores ...]

The keys are template.yaml's defaults (data/events.csv, data/stores.csv, data/cases.duckdb); pass --prefix if the
stack was deployed with other keys under one folder. Credentials and Region come from the usual AWS variables.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts.local_lambda import DATA_DIR
from search_core.cases.prepare import prepare


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--bucket", required=True)
    parser.add_argument("--prefix", default="data/")
    parser.add_argument("--events", type=Path, default=DATA_DIR / "events.csv")
    parser.add_argument("--stores", type=Path, default=DATA_DIR / "stores.csv")
    parser.add_argument("--cases", type=Path, default=DATA_DIR / "cases.db", help="SQLite cases.db, CSV or JSONL")
    args = parser.parse_args()

    import boto3

    s3 = boto3.client("s3")
    with tempfile.TemporaryDirectory() as work:
        prepared = Path(work) / "cases.duckdb"
        stats = prepare(args.cases, prepared)
        print(f"prepared {stats.decisions} decisions ({stats.skipped} rows skipped) in {stats.seconds:.1f} s")
        for source, name in ((args.events, "events.csv"), (args.stores, "stores.csv"), (prepared, "cases.duckdb")):
            key = f"{args.prefix}{name}"
            s3.upload_file(str(source), args.bucket, key)
            print(f"uploaded s3://{args.bucket}/{key} ({source.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
