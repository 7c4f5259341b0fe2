"""make bench: warm and cold latency of the SQL functions, side by side with the naive design.

Generates events.csv at the sizes given (default 10,000 rows), serves it from moto's S3 server over HTTP, and
measures in one run:
- warm: lambda_handler with a real Bedrock event, per query (p50 / p95 over repeated calls);
- baseline: the existing design, a new DuckDB connection and a CSV re-read per call, as a ratio;
- direct: the same query on an open DuckDB connection (what the handler adds on top of DuckDB);
- cold: a fresh Python process from start to the first answer (import, S3 fetch, worker boot and load).
Figures are medians of this run on this machine; compare ratios, not absolute values, across machines.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts.local_lambda import DATA_DIR, LAYER, ROOT, LambdaContext, import_function, load_event, serve_s3
from search_core.datasets.events import EVENTS
from search_core.datasets.loading import load_dataset

QUERIES = {
    "free (JSON-in-text LIKE)": "SELECT event_name, date_time FROM events WHERE cost LIKE '%\"is_free\": true%'",
    "October (date range)": "SELECT event_name, date_time FROM events "
    "WHERE start_date <= DATE '2025-10-31' AND end_date >= DATE '2025-10-01' ORDER BY start_date LIMIT 10",
    "count by venue (aggregate)": "SELECT location->>'venue' AS venue, count(*) AS n FROM events "
    "GROUP BY venue ORDER BY n DESC",
    "latest (ORDER BY + LIMIT)": "SELECT event_name, start_date FROM events ORDER BY start_date DESC LIMIT 5",
}


def generate_events(rows: int, path: Path) -> None:
    """A CSV of `rows` events shaped like the sample (the sample rows, with shifted dates and names)."""
    with (DATA_DIR / "events.csv").open(encoding="utf-8", newline="") as sample:
        header, *templates = list(csv.reader(sample))
    rng = random.Random(42)
    date_index = header.index("date_time")
    name_index = header.index("event_name")
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(header)
        for i in range(rows):
            row = list(rng.choice(templates))
            start = f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
            row[date_index] = start if rng.random() < 0.6 else f"{start}/2026-{rng.randint(1, 12):02d}-01"
            row[name_index] = f"{row[name_index]} #{i}"
            writer.writerow(row)


def timed(call: Callable[[], Any], repeat: int) -> list[float]:
    """Milliseconds per call. Metrics stay on (Lambda pays for them too) but their output is discarded."""
    samples = []
    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
        for _ in range(repeat):
            started = time.perf_counter()
            call()
            samples.append((time.perf_counter() - started) * 1000)
    return samples


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def naive_call(csv_path: Path, sql: str) -> list[Any]:
    """The existing tools' design: regex-free keyword check, new connection and CSV read on every call."""
    import duckdb

    lowered = sql.lower()
    if not lowered.lstrip().startswith("select") or any(w in lowered for w in ("drop ", "delete ", "insert ")):
        raise ValueError("rejected")
    con = duckdb.connect()
    load_dataset(con, EVENTS, csv_path)  # the CSV read, plus the helper columns the queries use
    rows = con.execute(sql).fetchmany(10)
    con.close()
    return rows


COLD_PROBE = """
import json, sys, time
t0 = time.perf_counter()
sys.path[:0] = [{layer!r}, {function!r}, {root!r}]
import app
t1 = time.perf_counter()
from scripts.local_lambda import LambdaContext
event = json.load(open({event!r}, encoding="utf-8"))
event["requestBody"]["content"]["application/json"]["properties"][0]["value"] = "SELECT count(*) FROM events"
response = app.lambda_handler(event, LambdaContext())
t2 = time.perf_counter()
assert response["response"]["httpStatusCode"] == 200, response
print(json.dumps({{"import_ms": (t1 - t0) * 1000, "first_call_ms": (t2 - t1) * 1000}}))
app.search.close()
"""


def cold_start(uri: str, cache: Path, repeat: int) -> dict[str, float]:
    """Median over fresh processes: process start → first answer, with the import and first call split out."""
    probe = COLD_PROBE.format(
        layer=str(LAYER),
        root=str(ROOT),
        function=str(ROOT / "functions" / "search_events"),
        event=str(ROOT / "events" / "search_events" / "free_events.json"),
    )
    totals, imports, firsts = [], [], []
    for i in range(repeat):
        env = {**os.environ, "EVENTS_URI": uri, "DATA_CACHE_DIR": str(cache / f"cold-{i}")}
        started = time.perf_counter()
        output = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
        totals.append((time.perf_counter() - started) * 1000)
        figures = json.loads(output.stdout.strip().splitlines()[-1])
        imports.append(figures["import_ms"])
        firsts.append(figures["first_call_ms"])
    return {
        "process_to_answer_ms": statistics.median(totals),
        "import_ms": statistics.median(imports),
        "first_call_ms": statistics.median(firsts),
    }


def bench_size(rows: int, work: Path, repeat: int) -> None:
    import boto3
    import duckdb

    csv_path = work / "events.csv"
    generate_events(rows, csv_path)
    key = f"events-{rows}.csv"
    boto3.client("s3").upload_file(str(csv_path), "bench", key)
    uri = f"s3://bench/{key}"
    os.environ.update(EVENTS_URI=uri, DATA_CACHE_DIR=str(work / "warm"))
    function = import_function("search_events", f"bench_events_{rows}")
    # Same thread count as the worker, so the difference is what the handler adds.
    direct = duckdb.connect(config={"threads": function.search.limits.threads})
    load_dataset(direct, EVENTS, csv_path)
    context = LambdaContext()
    base_event = load_event("search_events/free_events.json")
    print(f"\n## events.csv, {rows:,} rows ({csv_path.stat().st_size / 1e6:.1f} MB)\n")
    print("| query | warm p50 ms | warm p95 ms | direct DuckDB p50 ms | naive p50 ms | naive / warm |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, sql in QUERIES.items():
        event = json.loads(json.dumps(base_event))
        event["requestBody"]["content"]["application/json"]["properties"][0]["value"] = sql
        warm_up = timed(lambda event=event: function.lambda_handler(event, context), 3)  # fetch, boot, load
        assert warm_up
        warm = timed(lambda event=event: function.lambda_handler(event, context), repeat)
        on_duckdb = timed(lambda sql=sql: direct.execute(sql).fetchmany(11), repeat)
        naive = timed(lambda sql=sql: naive_call(csv_path, sql), max(5, repeat // 10))
        p50, naive50 = statistics.median(warm), statistics.median(naive)
        print(
            f"| {label} | {p50:.2f} | {percentile(warm, 0.95):.2f} | {statistics.median(on_duckdb):.2f} "
            f"| {naive50:.1f} | {naive50 / p50:.0f}× |"
        )
    function.search.close()
    cold = cold_start(uri, work, repeat=5)
    print(
        f"\nCold start (fresh process → first answer, median of 5): {cold['process_to_answer_ms']:.0f} ms; "
        f"import {cold['import_ms']:.0f} ms, first call (S3 fetch + worker boot + load + query) "
        f"{cold['first_call_ms']:.0f} ms."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, nargs="+", default=[10_000])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    print(f"# SQL search benchmark ({os.cpu_count()} cores, Python {sys.version.split()[0]})")
    server = serve_s3("bench")
    os.environ.update(POWERTOOLS_LOG_LEVEL="ERROR", POWERTOOLS_TRACE_DISABLED="1")
    try:
        for rows in args.rows:
            with tempfile.TemporaryDirectory() as work:
                bench_size(rows, Path(work), args.repeat)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
