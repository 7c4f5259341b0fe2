"""Prepare the statute database for the search_statutes function from e-Gov's law XML, showing how it goes on stderr.

    .venv/bin/python scripts/prepare_statutes.py statutes.zip statutes.duckdb    # or a folder of the download's folders

The zip or folder is e-Gov's bulk download (法令データ一括ダウンロード): one folder per law revision,
`<law id>_<effective date>_<amending law id>/<same>.xml`. `make upload-data STATUTES=...` prepares the same way.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tooling.progress import StageProgress

from search_core.kinds.statutes.store.build import prepare


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", type=Path, help="a zip of e-Gov law XML folders, or a folder of them")
    parser.add_argument("target", type=Path, help="the prepared DuckDB file to write, e.g. statutes.duckdb")
    args = parser.parse_args(argv)
    with StageProgress() as progress:
        stats = prepare(args.source, args.target, progress=progress)
    print(
        f"{args.target}: {stats.laws:,} laws, {stats.versions:,} versions, {stats.articles:,} articles, "
        f"{stats.grams:,} index grams, {stats.skipped} entries skipped (not a law folder), {stats.seconds:.1f} s",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
