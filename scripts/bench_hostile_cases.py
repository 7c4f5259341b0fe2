"""Case law on hostile data: every request kind against decisions far longer than any real one, under the deadline.

    .venv/bin/python scripts/bench_hostile_cases.py [--repeat 3]

Prepared once (under build/bench/hostile/): twenty decisions of ~310,000 characters dense with sums, dates and
citations; one whose 主文 holds 10 million characters; one of 5 million half-width kana in lines of 1,000, which NFKC
must rewrite (red team 8 read findInCase's headings there for 11 s). Each request is made as the function makes it
(kinds.case_law.service.CaseSearch with the default 5 s QUERY_TIMEOUT_SECONDS and a 3,008 MB function's limits),
`--repeat` times; the table gives the median, and the answer or the message it stopped with, the only other outcome
allowed: a request never runs past its deadline. Then the reading operations (caseOutline, readCaseText, findInCase,
and searchCases by the court's reasoning) on one decision of 10 million characters in over 300,000 heading lines,
prepared once alone (build/bench/hostile/headed.jsonl), each with its answer's bytes against the budget. Then one
decision of growing length, dense with sums, is prepared alone in a child process: its time and peak memory stop
growing at the bound on what is searched (MAX_SEARCHED_CHARS).
Printed as Markdown (make bench keeps it in build/bench/hostile.md).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import BaseModel

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# The logger writes to stdout, which is the Markdown: only errors there (preparing logs a warning).
os.environ.update(POWERTOOLS_LOG_LEVEL="ERROR")

from tooling.local import ROOT

from search_core.engine.budget import BUDGET_BYTES, embedded_bytes
from search_core.errors import SearchError
from search_core.kinds.case_law.limits import MAX_SEARCHED_CHARS
from search_core.kinds.case_law.responses import (
    CaseOutlineResponse,
    CasePassagesResponse,
    CaseSearchResponse,
    CaseTextResponse,
)
from search_core.kinds.case_law.service import CaseSearch
from search_core.settings import Settings

BUILD = ROOT / "build" / "bench" / "hostile"
TIMEOUT_SECONDS = 5.0
_WORDS = (
    "原告は、", "被告に対し、", "金", "1,000万円", "及びこれに対する", "令和5年4月1日から",
    "支払済みまで年3分の割合による金員を支払え。", "民法709条", "損害賠償", "第2の1(2)ア", "\n", "本件において、",
    "証拠によれば", "認められる。",
)  # fmt: skip
# Requests of findInCase and readCaseText, by name: (operation, arguments).
READS: dict[str, tuple[str, dict[str, Any]]] = {
    "findInCase deep in 5M half-width kana": ("passages", {"doc_id": "KANA", "keywords": "損害", "limit": 20,
                                                           "start": 4_000_000}),
    "readCaseText by a heading it lacks (5M)": ("text", {"doc_id": "KANA", "offset": 0, "heading": "第9"}),
    "readCaseText at the end (5M)": ("text", {"doc_id": "KANA", "offset": 5_000_000}),
}  # fmt: skip
REQUESTS: dict[str, dict[str, Any]] = {
    "court only (20 long decisions)": {"keywords": None, "court": "東京地裁", "limit": 20},
    "a word in every decision": {"keywords": "損害賠償", "limit": 20},
    "主文: on a 10-million-character 主文": {"keywords": "主文:1円", "limit": 5},
    "relevance over sums": {"keywords": "1000万円", "limit": 20, "sort": "relevance"},
    "passages everywhere": {"keywords": "損害賠償", "limit": 20, "passages": "証拠"},
    "a date filter (undated counted)": {"keywords": "損害賠償", "limit": 20, "date_from": date(2024, 1, 1)},
}


def corpus() -> Path:
    """The hostile decisions as a JSONL export (written once)."""
    path = BUILD / "cases.jsonl"
    if path.exists():
        return path
    BUILD.mkdir(parents=True, exist_ok=True)
    chooser = random.Random(7)
    rows = []
    for number in range(20):
        parts: list[str] = []
        while sum(map(len, parts)) < 310_000:
            parts.append(chooser.choice(_WORDS))
        rows.append(
            _decision(
                f"LONG-{number:02}",
                "東京地方裁判所",
                f"2024-05-{number + 1:02}",
                "被告は、原告に対し、金100万円を支払え。",
                "".join(parts),
            )
        )
    main = "被告は、原告に対し、金1円を支払え。" * 500_000
    rows.append(_decision("HUGE-MAIN", "大阪地方裁判所", "2024-06-01", main, "本件は、損害賠償請求事件である。"))
    rows.append(
        _decision("KANA", "札幌地方裁判所", "2024-07-01", "棄却する。", "\n".join(["ｶ" * 1000 + "損害"] * 5000))
    )
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    return path


def _decision(doc_id: str, court: str, day: str, main: str, reasons: str) -> dict[str, str]:
    return {"doc_id": doc_id, "court": court, "date": day, "case_name": "損害賠償請求事件", "main_text": main,
            "facts_and_reasons": reasons}  # fmt: skip


HEADED = "HEADED"
# The long decision of many headings: at least this many characters of 事実及び理由, and of heading lines.
HEADED_CHARS, HEADED_LINES = 10_000_000, 300_000
_HEADED_PART = (
    "第{marker}　争点{number}について\n（１）　当裁判所の判断\n"
    "被告の過失は認められず、原告の主張は採用できない。損害は生じていない。\n"
)
# The reading operations on HEADED, by name. 第900 names 170 of its parts: every 900th, from the 900th on.
HEADED_READS: dict[str, Callable[[CaseSearch], BaseModel]] = {
    "caseOutline": lambda search: search.outline(HEADED, None, BUDGET_BYTES),
    "caseOutline, keywords 過失 OR 損害": lambda search: search.outline(HEADED, "過失 OR 損害", BUDGET_BYTES),
    "readCaseText, heading 第900": lambda search: search.text(HEADED, 0, BUDGET_BYTES, heading="第900"),
    "findInCase 過失, heading 第900": lambda search: search.passages(HEADED, "過失", 20, BUDGET_BYTES, heading="第900"),
    "findInCase 判断:過失": lambda search: search.passages(HEADED, "判断:過失", 20, BUDGET_BYTES),
    "searchCases 判断:過失": lambda search: search.search("判断:過失", BUDGET_BYTES),
}


def headed_reasons() -> str:
    """HEADED's 事実及び理由: parts 「第N　争点Mについて」 (N going round 第1 to 第900), each opening
    「（１）　当裁判所の判断」, until both HEADED_CHARS and HEADED_LINES are reached."""
    parts: list[str] = []
    length = 0
    while length < HEADED_CHARS or 2 * len(parts) < HEADED_LINES:
        parts.append(_HEADED_PART.format(marker=len(parts) % 900 + 1, number=len(parts) + 1))
        length += len(parts[-1])
    return "".join(parts)


def headed_corpus(reasons: str) -> Path:
    """HEADED alone as a JSONL export (written once), so that preparing the hostile corpus stays as it was."""
    path = BUILD / "headed.jsonl"
    if not path.exists():
        BUILD.mkdir(parents=True, exist_ok=True)
        row = _decision(HEADED, "東京地方裁判所", "2024-08-01", "原告の請求を棄却する。", reasons)
        path.write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


# Lengths of the one decision prepared alone, in characters of its reasons.
PREPARED_LENGTHS = (300_000, 3_000_000, 30_000_000)
_PREPARE_ALONE = """
import resource, sys, time
from pathlib import Path
from search_core.kinds.case_law.store.build import prepare
started = time.perf_counter()
stats = prepare(Path(sys.argv[1]), Path(sys.argv[2]))
print(time.perf_counter() - started, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, stats.searched_in_part)
"""


def preparation(length: int) -> tuple[float, float, int]:
    """Seconds and peak resident megabytes a child process takes to prepare one decision of `length` characters dense
    with sums, and whether it is searched in part (1) or whole (0)."""
    sums = "被告は、原告に対し、金1,000万円を支払え。"
    with tempfile.TemporaryDirectory() as work:
        source = Path(work) / "one.jsonl"
        row = _decision("ONE", "東京地方裁判所", "2024-05-01", sums, sums * (length // len(sums)))
        source.write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
        child = subprocess.run(
            [sys.executable, "-c", _PREPARE_ALONE, str(source), str(Path(work) / "one.duckdb")],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
    seconds, kilobytes, in_part = child.stdout.split()
    return float(seconds), int(kilobytes) / 1024, int(in_part)


def timed(search: CaseSearch, request: dict[str, Any]) -> tuple[float, str]:
    arguments = dict(request)
    keywords = arguments.pop("keywords")
    return _timed(lambda: f"{search.search(keywords, BUDGET_BYTES, **arguments).count} hits")


def timed_read(search: CaseSearch, operation: str, arguments: dict[str, Any]) -> tuple[float, str]:
    if operation == "passages":
        passages = dict(arguments)
        return _timed(lambda: f"{search.passages(budget=BUDGET_BYTES, **passages).hits} places")
    return _timed(lambda: f"{len(search.text(budget=BUDGET_BYTES, **arguments).text)} characters")


def _timed(call: Any) -> tuple[float, str]:
    started = time.perf_counter()
    try:
        outcome = str(call())
    except SearchError as error:
        outcome = "answered: " + error.message[:40] + "…"
    return time.perf_counter() - started, outcome


def measured_read(read: Callable[[CaseSearch], BaseModel], search: CaseSearch) -> tuple[float, int, str, bool]:
    """Seconds, the answer's bytes as the doors send it, what it held, and whether it was a search stopped with its
    message (answered, not found in time)."""
    started = time.perf_counter()
    try:
        answer = read(search)
    except SearchError as error:
        seconds = time.perf_counter() - started
        return seconds, embedded_bytes({"error": error.message}), error.message[:40] + "…", True
    return time.perf_counter() - started, embedded_bytes(answer.model_dump()), held(answer), False


def held(answer: BaseModel) -> str:
    """What an answer holds, in a few words."""
    match answer:
        case CaseOutlineResponse():
            shown = f"{len(answer.headings):,} headings to depth {answer.depth_shown}"
            return shown if answer.complete else shown + " (not all)"
        case CaseTextResponse():
            return f"{len(answer.text):,} characters"
        case CasePassagesResponse():
            return f"{len(answer.passages)} of {answer.hits:,} places"
        case CaseSearchResponse():
            return f"{answer.count} hits"
    return type(answer).__name__


def verdict(runs: list[tuple[float, int, str, bool]]) -> str:
    """pass only when every run answered within the deadline and the budget."""
    late = max(seconds for seconds, _, _, _ in runs) > TIMEOUT_SECONDS
    large = max(size for _, size, _, _ in runs) > BUDGET_BYTES
    if late or large:
        return "**fail**: " + ("past the deadline" if late else "over the budget")
    return "answered, not found in time" if any(stopped for *_, stopped in runs) else "pass"


def print_headed(repeat: int) -> None:
    reasons = headed_reasons()
    search = CaseSearch(_settings(headed_corpus(reasons), BUILD / "headed-cache"))
    started = time.perf_counter()
    search.warm()
    lines = sum(line.startswith(("第", "（")) for line in reasons.splitlines())
    print(
        f"\nOne decision of {len(reasons):,} characters of 事実及び理由 in {lines:,} heading lines "
        f"(「第N　争点Mについて」 and 「（１）　当裁判所の判断」 by turns), prepared alone and opened in "
        f"{time.perf_counter() - started:.1f} s (cached after the first run). Its terms are searched in the first "
        f"{MAX_SEARCHED_CHARS:,} characters, and the outline says how far it read the headings. Each call {repeat} "
        f"times; *pass*: every run answered within {TIMEOUT_SECONDS:g} s and {BUDGET_BYTES:,} bytes "
        "(`embedded_bytes`, as in the envelope); a call stopped at its deadline with its message counts as answered, "
        "not found in time.\n"
    )
    print(f"| call | median s ({repeat} runs) | median bytes | answer | verdict |")
    print("|---|---:|---:|---|---|")
    for name, read in HEADED_READS.items():
        runs = [measured_read(read, search) for _ in range(repeat)]
        seconds = statistics.median(s for s, _, _, _ in runs)
        size = statistics.median(b for _, b, _, _ in runs)
        print(f"| {name} | {seconds:.2f} | {size:,.0f} | {runs[-1][2]} | {verdict(runs)} |")
    search.close()


def _settings(source: Path, cache: Path) -> Settings:
    """The function's settings, as deployed at 3,008 MB, on `source`."""
    return Settings(
        dataset_uris={"cases": str(source)}, cache_dir=cache, query_timeout_seconds=TIMEOUT_SECONDS, memory_mb=3008
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    search = CaseSearch(_settings(corpus(), BUILD / "cache"))
    started = time.perf_counter()
    search.search("損害賠償", BUDGET_BYTES, limit=1)
    print(f"Prepared and opened in {time.perf_counter() - started:.1f} s (cached after the first run).\n")
    print(f"| request | median s ({args.repeat} runs) | outcome | within {TIMEOUT_SECONDS:g} s |")
    print("|---|---:|---|---|")
    measured = {name: partial(timed, search, request) for name, request in REQUESTS.items()}
    measured |= {name: partial(timed_read, search, *read) for name, read in READS.items()}
    for name, measure in measured.items():
        runs = [measure() for _ in range(args.repeat)]
        seconds = statistics.median(s for s, _ in runs)
        within = "yes" if max(s for s, _ in runs) <= TIMEOUT_SECONDS else "NO"
        print(f"| {name} | {seconds:.2f} | {runs[-1][1]} | {within} |")
    search.close()
    print_headed(args.repeat)
    print(f"\nOne decision prepared alone (searched up to {MAX_SEARCHED_CHARS:,} characters):\n")
    print("| characters | seconds | peak MB (the child's) | searched |")
    print("|---:|---:|---:|---|")
    for length in PREPARED_LENGTHS:
        seconds, megabytes, in_part = preparation(length)
        print(f"| {length:,} | {seconds:.1f} | {megabytes:.0f} | {'in part' if in_part else 'whole'} |")


if __name__ == "__main__":
    main()
