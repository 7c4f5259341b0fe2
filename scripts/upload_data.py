"""make upload-data BUCKET=...: validate, prepare and upload every dataset of the catalogue where template.yaml looks.

    .venv/bin/python scripts/upload_data.py --bucket my-bucket [--prefix data/] [--source events=path/to/events.csv]

Each SQL dataset's CSV goes to <prefix><name>.csv and its prepared DuckDB file beside it (<key>.duckdb); nothing of
a dataset is uploaded if its CSV does not match its spec (the problems are listed by line). The case-law database
(SQLite, CSV or JSONL) is prepared into <prefix>cases.duckdb, the statutes (a zip or a folder of e-Gov's law XML,
--source statutes=laws.zip) into <prefix>statutes.duckdb. The keys are template.yaml's defaults; pass --prefix
if the stack was deployed with other keys under one folder. Credentials and Region come from the usual AWS variables.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tooling.progress import StageProgress
from tooling.publish import publish_catalogue

from search_core.catalogue import ACTION_GROUPS
from search_core.engine.prepare import InvalidData
from search_core.kinds.statutes.egov.law_xml import LawXmlError


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bucket", required=True)
    parser.add_argument("--prefix", default="data/")
    parser.add_argument("--source", action="append", default=[], metavar="NAME=PATH", help="a dataset's own file")
    args = parser.parse_args()
    sources = {name: Path(path) for name, _, path in (item.partition("=") for item in args.source)}
    unknown = sorted(set(sources) - {group.data for group in ACTION_GROUPS.values()})
    missing = sorted(str(path) for path in sources.values() if not path.exists())
    if unknown or missing:
        sys.exit(f"no dataset named {', '.join(unknown)}" if unknown else f"no such file: {', '.join(missing)}")
    try:
        with StageProgress() as progress:  # preparing case law and statutes is the long part
            for line in publish_catalogue(args.bucket, args.prefix, sources, progress):
                print(line)
    except InvalidData as error:
        sys.exit(str(error))
    except LawXmlError as error:
        sys.exit(error.message)


if __name__ == "__main__":
    main()
