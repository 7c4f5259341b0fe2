"""The figures in docs/security.md: the attack corpus per category, runaway queries, and a sustained load run.

    .venv/bin/python scripts/reliability.py [--calls 3000]

Runs the real handlers in this process (the worker in its own, as in Lambda) with canaries planted in the
environment and on disk, and prints Markdown tables.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tooling.attacks import CORPUS, TARGETS, ask, matches, outcome, plant_canaries, sql_of
from tooling.local import LambdaContext, import_function
from tooling.processes import children, mixed_events, process_rss_mb

from search_core.doors.envelope import response_bytes
from search_core.engine.budget import BUDGET_BYTES

SECRET = f"canary-secret-{secrets.token_hex(8)}"
FILE_SECRET = f"canary-file-{secrets.token_hex(8)}"


def corpus_report(functions: dict[str, Any], canary_file: Path, cache_dir: Path) -> list[str]:
    tried: Counter[str] = Counter()
    outcomes: dict[str, Counter[str]] = defaultdict(Counter)
    slowest: dict[str, float] = defaultdict(float)
    surprises, leaks, oversize, runaways = 0, 0, 0, []
    for name, function in functions.items():
        ask(function, name, "SELECT 1")  # the worker is up, and its folder exists for the canary
        places = plant_canaries(canary_file, cache_dir, TARGETS[name]["table"], FILE_SECRET)
        for case in CORPUS:
            started = time.perf_counter()
            response = ask(function, name, sql_of(case, name, places))
            elapsed = (time.perf_counter() - started) * 1000
            raw = json.dumps(response, ensure_ascii=False)
            leaks += any(secret in raw for secret in (SECRET, FILE_SECRET, str(cache_dir)))
            oversize += response_bytes(response) > BUDGET_BYTES
            got = outcome(response)
            tried[case["category"]] += 1
            outcomes[case["category"]][got] += 1
            slowest[case["category"]] = max(slowest[case["category"]], elapsed)
            surprises += not matches(case["expect"], got)
            if case["category"] == "runaway" and name == "search_events":
                runaways.append((case["sql"][:70], got, elapsed))
    lines = [f"## Attack corpus ({len(CORPUS)} cases × {len(functions)} SQL functions)\n"]
    lines.append("| category | requests | outcomes | slowest call (ms) |\n|---|---:|---|---:|")
    for category, count in tried.items():
        shown = ", ".join(f"{k} {v}" for k, v in sorted(outcomes[category].items()))
        lines.append(f"| {category} | {count} | {shown} | {slowest[category]:.0f} |")
    lines.append(
        f"\nUnexpected outcomes: {surprises}. Leaks (environment secret, file on disk, file in the worker's DuckDB "
        f"folder, the cache folder's path): {leaks}. Responses over {BUDGET_BYTES:,} bytes: {oversize}. Slowest call "
        f"of all: {max(slowest.values()):.0f} ms with QUERY_TIMEOUT_SECONDS=1.\n"
    )
    lines.append("## Runaway queries (search_events, QUERY_TIMEOUT_SECONDS=1, 1,024 MB function)\n")
    lines.append("| query | outcome | ended after ms |\n|---|---|---:|")
    lines.extend(f"| `{sql.replace('|', '¦')}` | {got} | {elapsed:.0f} |" for sql, got, elapsed in runaways)
    return lines


def load_report(calls: int) -> list[str]:
    function = import_function("search_events", "search_events_reliability_load")
    context = LambdaContext()
    for event in mixed_events(200):
        function.lambda_handler(event, context)
    kids = children()
    before = (process_rss_mb(os.getpid()), sum(map(process_rss_mb, kids)), len(os.listdir("/proc/self/fd")))
    latencies = []
    for event in mixed_events(calls):
        started = time.perf_counter()
        function.lambda_handler(event, context)
        latencies.append((time.perf_counter() - started) * 1000)
    kids_after = children()
    after = (process_rss_mb(os.getpid()), sum(map(process_rss_mb, kids_after)), len(os.listdir("/proc/self/fd")))
    function.function.close()
    window = min(500, calls // 4)
    return [
        f"\n## Sustained load ({calls:,} mixed calls after 200 warm-up calls)\n",
        "| | before | after |\n|---|---:|---:|",
        f"| function process RSS (MB) | {before[0]:.0f} | {after[0]:.0f} |",
        f"| worker process RSS (MB) | {before[1]:.0f} | {after[1]:.0f} |",
        f"| open file descriptors | {before[2]} | {after[2]} |",
        f"| worker processes | {len(kids)} | {len(kids_after)} |",
        f"\nLatency p50 of the first {window} calls {statistics.median(latencies[:window]):.2f} ms, of the last "
        f"{window} {statistics.median(latencies[-window:]):.2f} ms (the mix includes errors and a runaway query "
        "every 100 calls).",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=3000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        canary_file = Path(work) / "canary.csv"
        canary_file.write_text(f"secret\n{FILE_SECRET}\n", encoding="utf-8")
        os.environ.update(
            DATA_CACHE_DIR=str(Path(work) / "cache"),
            QUERY_TIMEOUT_SECONDS="1",
            AWS_LAMBDA_FUNCTION_MEMORY_SIZE="1024",
            AWS_SECRET_ACCESS_KEY=SECRET,
            CANARY_SECRET=SECRET,
            POWERTOOLS_LOG_LEVEL="CRITICAL",
            POWERTOOLS_TRACE_DISABLED="1",
            POWERTOOLS_METRICS_NAMESPACE="Reliability",
        )
        functions = {name: import_function(name, f"{name}_reliability") for name in TARGETS}
        # The handlers print their metrics to stdout, as in Lambda; the report is printed once they are done.
        with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
            try:
                report = corpus_report(functions, canary_file, Path(work) / "cache")
            finally:
                for function in functions.values():
                    function.function.close()
            os.environ["QUERY_TIMEOUT_SECONDS"] = "0.2"
            report += load_report(args.calls)
        print("\n".join(report))


if __name__ == "__main__":
    main()
