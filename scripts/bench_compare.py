"""make bench, A/B part: warm calls that return rows, this tree against an earlier commit, in alternating rounds.

    .venv/bin/python scripts/bench_compare.py [--before 3f8c731] [--rows 10000 1000000] [--rounds 8] [--calls 25]
    .venv/bin/python scripts/bench_compare.py --before HEAD --before-python /tmp/old-duckdb/bin/python

With --before-python, the earlier version runs under that interpreter (a virtual environment holding other releases of
the dependencies, such as DuckDB's previous one), so the same code can be compared across a dependency upgrade.

Two runs of `make bench` differ in machine load; this compares two versions of the code within one run instead. Each
version serves the same generated CSVs (make bench's, under build/bench/sql/) from its own process, with the
functions imported as Lambda imports them; the processes take turns, one round of every query at a time, so load
that comes and goes hits both alike. Writes build/bench/compare.json for scripts/bench_report.py.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tooling.local import ROOT

sys.path.insert(0, str(ROOT / "scripts"))

from bench_sql import BENCHES, BUILD, LAMBDA_MEMORY_MB, NO_MATCH, dataset_csv

# Runs in each version's own tree: serve warm calls on request, one JSON line of timings per round.
SERVER = """
import json, os, sys, time, contextlib, io
from tooling.local import LambdaContext, import_function, sql_event
cases = json.loads(sys.argv[1])
with contextlib.redirect_stdout(io.StringIO()):
    functions = {group: import_function(group) for group in {c["group"] for c in cases}}
    for c in cases:
        functions[c["group"]].lambda_handler(sql_event(c["group"], c["sql"]), LambdaContext())
print("ready", flush=True)
for line in sys.stdin:
    calls = int(line)
    timings = []
    with contextlib.redirect_stdout(io.StringIO()):
        for c in cases:
            event, handler = sql_event(c["group"], c["sql"]), functions[c["group"]].lambda_handler
            samples = []
            for _ in range(calls):
                started = time.perf_counter()
                handler(event, LambdaContext())
                samples.append((time.perf_counter() - started) * 1000)
            timings.append(samples)
    print(json.dumps(timings), flush=True)
"""


def worktree(ref: str) -> Path:
    """A checkout of `ref` under build/bench/compare/ (made once)."""
    path = BUILD / "compare" / ref
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "worktree", "prune"], cwd=ROOT, check=True)  # checkouts `make clean` removed
        subprocess.run(["git", "worktree", "add", "--detach", str(path), ref], cwd=ROOT, check=True)
    return path


def start(tree: Path, cases: list[dict[str, Any]], rows: int, python: str = sys.executable) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "PYTHONPATH": f"{tree / 'layers' / 'shared' / 'python'}{os.pathsep}{tree}",
        "DATA_CACHE_DIR": str(BUILD / "compare" / f"cache-{tree.name}-{Path(python).parent.parent.name}-{rows}"),
        "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": str(LAMBDA_MEMORY_MB),
        "POWERTOOLS_LOG_LEVEL": "INFO",
        "POWERTOOLS_TRACE_DISABLED": "1",
        **{f"{bench.spec.name.upper()}_URI": str(dataset_csv(bench, rows)) for bench in BENCHES.values()},
    }
    proc = subprocess.Popen(
        [python, "-c", SERVER, json.dumps(cases)],
        cwd=tree,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready", f"{tree} did not start"
    return proc


def round_of(proc: subprocess.Popen[str], calls: int) -> list[list[float]]:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(f"{calls}\n")
    proc.stdin.flush()
    timings: list[list[float]] = json.loads(proc.stdout.readline())
    return timings


def compare(before: Path, rows: int, rounds: int, calls: int, before_python: str) -> list[dict[str, Any]]:
    cases = [
        {"dataset": bench.spec.name, "group": bench.function, "label": label, "sql": sql}
        for bench in BENCHES.values()
        for label, sql in bench.queries.items()
        if label != NO_MATCH
    ]
    versions = {"before": start(before, cases, rows, before_python), "now": start(ROOT, cases, rows)}
    samples: dict[str, list[list[float]]] = {name: [[] for _ in cases] for name in versions}
    try:
        for _ in range(rounds):
            for name, proc in versions.items():
                for index, timings in enumerate(round_of(proc, calls)):
                    samples[name][index] += timings
    finally:
        for proc in versions.values():
            proc.kill()
            proc.wait()
    return [
        {
            **case,
            "rows": rows,
            "before_p50": statistics.median(samples["before"][i]),
            "now_p50": statistics.median(samples["now"][i]),
        }
        for i, case in enumerate(cases)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", default="3f8c731", help="the commit to compare with (default: before hints)")
    parser.add_argument("--rows", type=int, nargs="+", default=[10_000, 1_000_000])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--calls", type=int, default=25)
    parser.add_argument("--before-python", default=sys.executable, help="the interpreter the earlier version runs in")
    args = parser.parse_args()
    before = worktree(args.before)
    results = [r for rows in args.rows for r in compare(before, rows, args.rounds, args.calls, args.before_python)]
    for r in results:
        print(f"{r['dataset']:7} {r['rows']:>9,} {r['label']:40} {r['before_p50']:7.2f} {r['now_p50']:7.2f} ms")
    out = BUILD / "compare.json"
    compared = {"before": args.before, "before_python": args.before_python, "results": results}
    out.write_text(json.dumps(compared, ensure_ascii=False, indent=1))
    print(f"wrote {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
