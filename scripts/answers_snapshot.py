"""Every answer the functions give to a fixed set of requests, written to a file: run it before and after a change
that should not change behaviour, and compare the two files byte for byte.

    .venv/bin/python scripts/answers_snapshot.py build/answers-before.jsonl
    ... change ...
    .venv/bin/python scripts/answers_snapshot.py build/answers-after.jsonl && cmp build/answers-*.jsonl

The requests: every event in events/ through its function's lambda_handler, on the sample data; then the case-law
benchmark's queries (scripts/bench_cases.py) on a generated corpus of 3,000 decisions, each also read (its first
page) and searched in (findInCase) with its own keywords. Counting is given all the time it needs (a total counted
in 10 ms depends on the machine's load), so only the deadlines depend on the clock, and these requests stay far
within them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.update(POWERTOOLS_LOG_LEVEL="ERROR", POWERTOOLS_METRICS_DISABLED="true")  # before the logger is made

from scripts.bench_cases import QUERIES
from tooling import case_corpus
from tooling.local import EVENTS_DIR, LambdaContext, close_function, import_function, load_event

from search_core.catalogue import ACTION_GROUPS
from search_core.engine.budget import BUDGET_BYTES
from search_core.kinds.case_law.service import CaseSearch
from search_core.kinds.case_law.store import index
from search_core.settings import Settings

CORPUS_SIZE = 3_000
BUDGET = BUDGET_BYTES


def event_answers() -> list[tuple[str, Any]]:
    answers = []
    for group in ACTION_GROUPS:
        function = import_function(group, f"snapshot_{group}")
        for path in sorted((EVENTS_DIR / group).glob("*.json")):
            event = load_event(f"{group}/{path.name}")
            answers.append((f"{group}/{path.name}", function.lambda_handler(event, LambdaContext())))
        close_function(function)
    return answers


def case_answers(work: Path) -> list[tuple[str, Any]]:
    index.COUNTING_SECONDS = index.RELEVANCE_SECONDS = 60.0
    source = work / "corpus.db"
    if not source.exists():
        work.mkdir(parents=True, exist_ok=True)
        case_corpus.write(source, CORPUS_SIZE)
    search = CaseSearch(Settings(dataset_uris={"cases": str(source)}, cache_dir=work / "cache"))
    answers: list[tuple[str, Any]] = []
    for query in QUERIES:
        arguments = dict(query)
        keywords = arguments.pop("keywords", None)
        filters = {k: date.fromisoformat(v) if k.startswith("date_") else v for k, v in arguments.items()}
        found = search.search(keywords, BUDGET, **filters)
        answers.append((f"search {json.dumps(query, ensure_ascii=False)}", found.model_dump(mode="json")))
        for hit in found.results[:2]:
            answers.append((f"read {hit.doc_id}", search.text(hit.doc_id, 0, BUDGET).model_dump(mode="json")))
            if keywords:
                places = search.passages(hit.doc_id, keywords, 5, BUDGET)
                answers.append((f"find {hit.doc_id} {keywords}", places.model_dump(mode="json")))
    search.close()
    return answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output", type=Path)
    args = parser.parse_args()
    work = Path("build") / "answers"
    answers = event_answers() + case_answers(work)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    with args.output.open("w", encoding="utf-8") as out:
        for name, answer in answers:
            out.write(json.dumps({"request": name, "answer": answer}, ensure_ascii=False, sort_keys=True) + "\n")
    print(f"{len(answers)} answers written to {args.output}")


if __name__ == "__main__":
    main()
