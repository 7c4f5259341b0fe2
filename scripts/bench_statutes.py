"""Statutes at the scale of all current laws: preparation, then each operation's time on one CPU, cold and warm.

    .venv/bin/python scripts/bench_statutes.py [--laws 9000] [--repeat 3]

The corpus (tooling/statute_corpus.py: 9,000 laws in e-Gov's law XML, ~10,000 versions, ~310,000 articles) is
generated once under build/bench/ as a zip, then prepared in a child process (its time, peak memory and the file's
size). The operations are measured in another child pinned to one CPU, as the function makes them
(kinds.statutes.service.StatuteSearch with a 1,769 MB function's limits): the cold first answer (opening the prepared
file and answering one getArticle), then getArticle on random articles of random laws and searchStatutes on words
drawn from the articles (runs of kanji or katakana, alone, two together, two as alternatives, within one law), each
`--repeat` times; the table gives p50 and p95. Printed as Markdown (make bench keeps it
in build/bench/statutes.md).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tooling.local import ROOT
from tooling.statute_corpus import write_zip

BUILD = ROOT / "build" / "bench"
SEED = 20261129
# What people search statutes for: words of two to six kanji (or katakana), as the articles write them.
_WORD = re.compile("[\u4e00-\u9fff]{2,6}|[\u30a0-\u30ff]{3,8}")
TARGETS_MS = {"getArticle": 20.0, "searchStatutes": 50.0}
COLD_TARGET_S = 1.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--laws", type=int, default=9000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child, args.repeat)))
        return
    corpus = BUILD / f"statutes-{args.laws}.zip"
    if not corpus.exists():
        BUILD.mkdir(parents=True, exist_ok=True)
        write_zip(corpus, args.laws)
    prepared = BUILD / f"statutes-{args.laws}.duckdb"
    preparation = prepare(corpus, prepared)
    timings = run_child(prepared, args.repeat)
    print(report(corpus, prepared, preparation, timings))


def prepare(corpus: Path, prepared: Path) -> dict[str, float]:
    """Prepare the corpus in a child process: its wall time and peak memory."""
    started = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, str(ROOT / "scripts" / "prepare_statutes.py"), str(corpus), str(prepared)],
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(child.pid, 0)
    if status:
        sys.exit(f"preparing {corpus} failed ({status})")
    return {"seconds": time.perf_counter() - started, "peak_mb": usage.ru_maxrss / 1024}


def run_child(prepared: Path, repeat: int) -> dict[str, Any]:
    command = [sys.executable, str(Path(__file__).resolve()), "--child", str(prepared), "--repeat", str(repeat)]
    env = os.environ | {"POWERTOOLS_LOG_LEVEL": "ERROR", "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": "1769"}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure(prepared: Path, repeat: int) -> dict[str, Any]:
    """In the child, on one CPU: the cold first answer, then the operations warm."""
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    from search_core.engine.budget import BUDGET_BYTES
    from search_core.kinds.statutes.service import StatuteSearch
    from search_core.settings import Settings

    settings = Settings.from_env({"STATUTES_URI": str(prepared), "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": "1769",
                                  "DATA_CACHE_DIR": str(BUILD / "statutes-cache")})  # fmt: skip
    started = time.perf_counter()
    statutes = StatuteSearch(settings)
    index = statutes._data.current()
    law_id = sorted(index.versions)[0]
    first = index.versions[law_id][-1].title
    statutes.article(first, "1条", BUDGET_BYTES)
    cold = time.perf_counter() - started
    articles, searches = requests(index)
    timings: dict[str, list[float]] = {"getArticle": [], "searchStatutes": [], "lawContents": []}
    for _ in range(repeat):
        for law, article in articles:
            timings["getArticle"].append(timed(partial(statutes.article, law, article, BUDGET_BYTES)))
        for keywords, law_filter in searches:
            timings["searchStatutes"].append(timed(partial(statutes.search, keywords, BUDGET_BYTES, law_filter, 5)))
        for law, _ in articles[:50]:
            timings["lawContents"].append(timed(partial(statutes.contents, law, BUDGET_BYTES)))
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"cold_s": cold, "peak_mb": peak_mb, "laws": len(index.versions), "articles": len(index.everyone),
            "timings": timings, "searches": [keywords for keywords, _ in searches]}  # fmt: skip


def requests(index: Any) -> tuple[list[tuple[str, str]], list[tuple[str, str | None]]]:
    """Random articles of random laws (by title, article in Arabic numerals), and searches on words from them."""
    rng = random.Random(SEED)
    laws = sorted(index.versions)
    articles: list[tuple[str, str]] = []
    words: list[str] = []
    while len(articles) < 200:
        version = index.versions[rng.choice(laws)][-1]
        rows = index.contents(version)
        numbered = [
            row for row in rows if row.article.key.replace("_", "").isdigit() and row.article.supplement is None
        ]
        if not numbered:
            continue
        chosen = rng.choice(numbered).article
        number, *branches = chosen.key.split("_")
        articles.append((version.title, f"{number}条" + "".join(f"の{b}" for b in branches)))
        text = chosen.paragraphs[0].text if chosen.paragraphs else ""
        if found := _WORD.findall(text):
            words.append(rng.choice(found))
    searches: list[tuple[str, str | None]] = [(word, None) for word in words[:40]]
    searches += [(f"{a} {b}", None) for a, b in zip(words[40:60], words[60:80], strict=False)]
    searches += [(f"{a} OR {b}", None) for a, b in zip(words[80:90], words[90:100], strict=False)]
    searches += [(word, law) for word, (law, _) in zip(words[100:120], articles, strict=False)]
    searches += [("第十二条", None), ("罰金 -懲役", None), ("届出 許可 OR 認可", None)]
    return articles, searches


def timed(call: Any) -> float:
    started = time.perf_counter()
    try:
        call()
    except Exception as error:  # a 404 is an answer too; anything else is reported
        if getattr(error, "status_code", None) is None:
            raise
    return (time.perf_counter() - started) * 1000


def report(corpus: Path, prepared: Path, preparation: dict[str, float], measured: dict[str, Any]) -> str:
    lines = [
        f"# Statutes at scale: {measured['laws']:,} laws, {measured['articles']:,} article rows (all versions)",
        "",
        f"Corpus: {corpus.stat().st_size / 1e6:,.0f} MB zip of e-Gov law XML (tooling/statute_corpus.py). Prepared in "
        f"{preparation['seconds']:.0f} s, peak memory {preparation['peak_mb']:,.0f} MB, into "
        f"{prepared.stat().st_size / 1e6:,.0f} MB.",
        "",
        f"On one CPU: cold first answer {measured['cold_s'] * 1000:,.0f} ms (target ≤ {COLD_TARGET_S * 1000:.0f} ms); "
        f"peak memory of the serving process {measured['peak_mb']:,.0f} MB.",
        "",
        "| operation | calls | p50 ms | p95 ms | target p50 |",
        "|---|---|---|---|---|",
    ]
    for operation, samples in measured["timings"].items():
        ordered = sorted(samples)
        p95 = ordered[int(len(ordered) * 0.95) - 1]
        target = TARGETS_MS.get(operation)
        lines.append(f"| {operation} | {len(samples)} | {statistics.median(samples):.1f} | {p95:.1f} | "
                     f"{f'≤ {target:.0f} ms' if target else ''} |")  # fmt: skip
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
