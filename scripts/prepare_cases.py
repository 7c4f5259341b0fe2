"""Prepare the case-law database for the search_cases function, showing how it goes on stderr.

    .venv/bin/python scripts/prepare_cases.py cases.db cases.duckdb    # also accepts a CSV or JSONL export

On a terminal each stage shows a bar (decisions done, rate, time left when the total is known: a SQLite file says
it, a CSV or JSONL export does not); otherwise a line per stage as it ends. `make upload-data` prepares the same way.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tooling.progress import StageProgress

from search_core.kinds.case_law.limits import MAX_DOC_ID_CHARS, MAX_SEARCHED_CHARS
from search_core.kinds.case_law.store.build import prepare


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", type=Path, help="cases.db (SQLite), or a CSV / JSONL export")
    parser.add_argument("target", type=Path, help="the prepared DuckDB file to write, e.g. cases.duckdb")
    args = parser.parse_args(argv)
    with StageProgress() as progress:
        stats = prepare(args.source, args.target, progress=progress)
    print(
        f"{args.target}: {stats.decisions:,} decisions, {stats.grams:,} index grams, {stats.skipped} rows skipped "
        f"(no doc_id, one over {MAX_DOC_ID_CHARS} characters, or a duplicate), "
        f"{stats.searched_in_part} searched only up to {MAX_SEARCHED_CHARS:,} characters, "
        f"{stats.seconds:.1f} s",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
