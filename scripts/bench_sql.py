"""make bench, SQL part: both SQL functions at several data sizes, side by side with the naive design.

    .venv/bin/python scripts/bench_sql.py [--rows 1000 10000 100000 1000000] [--datasets events stores]

For each dataset and size it generates a CSV shaped like the sample (cached under build/bench/sql/), serves it
from moto's S3 server over HTTP and measures, in one run and on the same data:
- warm: `lambda_handler` with a real Bedrock event, per typical query (p50 / p95 / p99);
- direct: the same query, row cap included, on an open DuckDB connection with the worker's thread count (bare
  DuckDB: each query's warm p50 is printed against it as a ratio);
- naive: the existing design, a regex check plus a new connection and a CSV re-read on every call;
- cold: fresh processes from start to the first answer, split into import, S3 fetch, load and first query
  (fetch and load come from the function's own DataFetchTime / DataLoadTime metrics), and their peak memory.
Writes build/bench/sql.json for scripts/bench_report.py. Figures are medians of this run on this machine.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import logging
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tooling.local import DATA_DIR, LAYER, ROOT, LambdaContext, body_of, import_function, load_event, serve_s3
from tooling.processes import children, process_rss_mb

from search_core.advice.profile import build_profile
from search_core.datasets.events import EVENTS
from search_core.datasets.spec import DatasetSpec
from search_core.datasets.stores import STORES
from search_core.engine.limits import QueryLimits
from search_core.engine.loading import attach_dataset_file, load_dataset, write_dataset_file
from search_core.kinds.sql_table.publish import publish
from search_core.safety.policy import QueryPolicy
from search_core.storage import s3
from search_core.worker.client import QueryWorker
from search_core.worker.execute import authorize, run_query

BUILD = ROOT / "build" / "bench"
# What template.yaml deploys the SQL functions with: 1,769 MB is one vCPU, so DuckDB gets one thread.
LAMBDA_MEMORY_MB = 1769


# The query of each dataset that finds nothing, so its answer carries hints from the data's profile.
NO_MATCH = "no match (zero rows + hints)"


@dataclass(frozen=True)
class Bench:
    spec: DatasetSpec
    function: str
    event: str
    queries: dict[str, str]


BENCHES = {
    "events": Bench(
        EVENTS,
        "search_events",
        "search_events/free_events.json",
        {
            "free (JSON-in-text LIKE)": "SELECT event_name, date_time FROM events "
            "WHERE cost LIKE '%\"is_free\": true%'",
            "October (date range)": "SELECT event_name, date_time FROM events "
            "WHERE start_date <= DATE '2025-10-31' AND end_date >= DATE '2025-10-01' ORDER BY start_date LIMIT 10",
            "count by venue (aggregate)": "SELECT location->>'venue' AS venue, count(*) AS n FROM events "
            "GROUP BY venue ORDER BY n DESC",
            "latest (ORDER BY + LIMIT)": "SELECT event_name, start_date FROM events ORDER BY start_date DESC LIMIT 5",
            NO_MATCH: "SELECT event_name FROM events WHERE target_audience LIKE '%ファミリー%'",
        },
    ),
    "stores": Bench(
        STORES,
        "search_stores",
        "search_stores/parking_family.json",
        {
            "parking + family (JSON-in-text LIKE)": "SELECT store_name, facilities FROM stores "
            "WHERE facilities LIKE '%駐車場%' AND target_audience LIKE '%家族%'",
            "cafés open Sat 8:30 (hours macro)": "SELECT store_name FROM stores WHERE category = 'カフェ' "
            "AND is_open_at(opening_hours, TIMESTAMP '2025-10-04 08:30')",
            "count by category (aggregate)": "SELECT category, count(*) AS n FROM stores GROUP BY category "
            "ORDER BY n DESC",
            "by floor (ORDER BY + LIMIT)": "SELECT store_name, location->>'floor' AS floor FROM stores "
            "ORDER BY floor, store_name LIMIT 5",
            NO_MATCH: "SELECT store_name FROM stores WHERE category = 'スーパー' AND facilities LIKE '%駐車場%'",
        },
    ),
}


# ---------------------------------------------------------------- data


def generate(spec: DatasetSpec, rows: int, path: Path) -> None:
    """`rows` rows built from the sample's, with unique names (and, for events, dates spread over two years)."""
    with (DATA_DIR / spec.file_name).open(encoding="utf-8-sig", newline="") as sample:
        header, *templates = list(csv.reader(sample))
    rng = random.Random(42)
    name = header.index(spec.csv_columns[0].name)
    dates = header.index("date_time") if "date_time" in header else None
    tmp = path.with_suffix(".partial")
    with tmp.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(header)
        for i in range(rows):
            row = list(rng.choice(templates))
            row[name] = f"{row[name]} #{i}"
            if dates is not None:
                start = f"2025-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
                row[dates] = start if rng.random() < 0.6 else f"{start}/2026-{rng.randint(1, 12):02d}-01"
            writer.writerow(row)
    tmp.rename(path)


def dataset_csv(bench: Bench, rows: int) -> Path:
    """The generated CSV, cached under a name that changes with the sample it is built from."""
    sample = hashlib.sha256((DATA_DIR / bench.spec.file_name).read_bytes()).hexdigest()[:8]
    path = BUILD / "sql" / f"{bench.spec.name}-{rows}-{sample}.csv"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        generate(bench.spec, rows, path)
    return path


# ---------------------------------------------------------------- timing


@contextmanager
def quiet_stdout() -> Iterator[None]:
    """Send what the function prints (INFO logs, EMF metrics, as on Lambda) to /dev/null while timing."""
    sys.stdout.flush()
    saved, sink = os.dup(1), os.open(os.devnull, os.O_WRONLY)
    os.dup2(sink, 1)
    try:
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)
        os.close(sink)


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]

    return {"p50": statistics.median(ordered), "p95": at(0.95), "p99": at(0.99), "n": len(ordered)}


def interleaved(calls: dict[str, Callable[[], Any]], repeat: int) -> dict[str, list[float]]:
    """Milliseconds per call, the calls taking turns so that drift on a shared machine hits all of them alike."""
    samples: dict[str, list[float]] = {name: [] for name in calls}
    with quiet_stdout():
        for _ in range(repeat):
            for name, call in calls.items():
                started = time.perf_counter()
                call()
                samples[name].append((time.perf_counter() - started) * 1000)
    return samples


# ---------------------------------------------------------------- the naive design

_NAIVE_SELECT = re.compile(r"^\s*(select|with)\b", re.IGNORECASE)
_NAIVE_FORBIDDEN = re.compile(r"\b(insert|update|delete|drop|alter|create|copy|attach|pragma|install|load)\b", re.I)


def naive_call(spec: DatasetSpec, csv_path: Path, sql: str) -> list[Any]:
    """The existing tools' design: a regex check, then a new connection and a full CSV read on every call.

    It loads with our loader so the same queries (which use the date helper columns) run on both sides.
    """
    import duckdb

    if not _NAIVE_SELECT.match(sql) or _NAIVE_FORBIDDEN.search(sql):
        raise ValueError("rejected")
    con = duckdb.connect()
    try:
        load_dataset(con, spec, csv_path)
        return con.execute(sql).fetchmany(10)
    finally:
        con.close()


# ---------------------------------------------------------------- cold start

COLD_PROBE = """
import json, os, sys, time
t0 = time.perf_counter()
sys.path[:0] = [{layer!r}, {function!r}, {root!r}]
import app
t1 = time.perf_counter()
from tooling.local import LambdaContext
event = json.load(open({event!r}, encoding="utf-8"))
def ask(sql):
    event["requestBody"]["content"]["application/json"]["properties"][0]["value"] = sql
    response = app.lambda_handler(event, LambdaContext())
    assert response["response"]["httpStatusCode"] == 200, response
ask({first!r})
t2 = time.perf_counter()
answered = time.time()
for sql in {queries!r}:
    ask(sql)
# VmHWM, not getrusage: ru_maxrss survives exec and so counts the parent a process was forked from.
def peak_mb(pid):
    status = dict(line.split(":", 1) for line in open(f"/proc/{{pid}}/status"))
    return int(status["VmHWM"].split()[0]) / 1024
tasks = os.listdir("/proc/self/task")
workers = [int(p) for t in tasks for p in open(f"/proc/self/task/{{t}}/children").read().split()]
print("RESULT " + json.dumps({{"import_ms": (t1 - t0) * 1000, "first_call_ms": (t2 - t1) * 1000, "answered": answered,
      "function_peak_mb": peak_mb("self"), "worker_peak_mb": max(map(peak_mb, workers), default=0)}}))
app.function.close()
"""


def cold_starts(bench: Bench, uri: str, repeat: int, traced: bool = False, one_cpu: bool = False) -> dict[str, float]:
    """Medians over fresh processes. `traced` runs as on Lambda with tracing on (X-Ray SDK loaded, botocore
    patched; segments go to a daemon address nobody listens on); `one_cpu` pins the process and its worker to
    one CPU, as Lambda allocates up to 1,769 MB."""
    probe = COLD_PROBE.format(
        layer=str(LAYER),
        root=str(ROOT),
        function=str(ROOT / "functions" / bench.function),
        event=str(ROOT / "events" / bench.event),
        first=f"SELECT count(*) FROM {bench.spec.table}",
        queries=list(bench.queries.values()),
    )
    env = {**os.environ, f"{bench.spec.name.upper()}_URI": uri, "POWERTOOLS_LOG_LEVEL": "INFO"}
    if traced:
        env.update(
            LAMBDA_TASK_ROOT=str(ROOT / "functions" / bench.function),
            POWERTOOLS_TRACE_DISABLED="false",
            _X_AMZN_TRACE_ID="Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1",
            AWS_XRAY_DAEMON_ADDRESS="127.0.0.1:2000",
        )
    runs = [
        _one_cold_start(probe, {**env, "DATA_CACHE_DIR": str(BUILD / "cold" / str(i))}, one_cpu) for i in range(repeat)
    ]
    shutil.rmtree(BUILD / "cold")  # each run left its own copy of the data
    return {key: statistics.median(run[key] for run in runs) for key in runs[0]}


def _one_cold_start(probe: str, env: dict[str, str], one_cpu: bool) -> dict[str, float]:
    started = time.time()
    command = [*(["taskset", "-c", "0"] if one_cpu else []), sys.executable, "-c", probe]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    lines = done.stdout.splitlines()
    figures: dict[str, float] = json.loads(next(line for line in lines if line.startswith("RESULT "))[7:])
    total = (figures.pop("answered") - started) * 1000
    first_metrics = next(json.loads(line) for line in lines if line.startswith('{"_aws"'))
    fetch, load = first_metrics["DataFetchTime"], first_metrics["DataLoadTime"]
    figures.update(
        process_to_answer_ms=total,
        fetch_ms=fetch[0] if isinstance(fetch, list) else fetch,
        load_ms=load[0] if isinstance(load, list) else load,
    )
    figures["first_query_ms"] = figures["first_call_ms"] - figures["fetch_ms"] - figures["load_ms"]
    return figures


# ---------------------------------------------------------------- warm


def warm(bench: Bench, csv_path: Path, uri: str, rows: int, repeat: int) -> tuple[list[dict[str, Any]], float]:
    """Each query's warm figures, and the median time to build the data's profile (on the direct connection)."""
    os.environ[f"{bench.spec.name.upper()}_URI"] = uri
    os.environ["DATA_CACHE_DIR"] = str(BUILD / "warm")
    function = import_function(bench.function, f"bench_{bench.spec.name}_{rows}")
    limits: QueryLimits = function.function.service.limits
    direct = direct_connection(bench, csv_path, limits)
    policy = QueryPolicy.for_connection(direct, bench.spec.table, bench.spec.table_names)
    context, base = LambdaContext(), load_event(bench.event)
    results = []
    for label, sql in bench.queries.items():
        event = json.loads(json.dumps(base))
        event["requestBody"]["content"]["application/json"]["properties"][0]["value"] = sql
        bounded = f"SELECT * FROM (\n{sql}\n) LIMIT {limits.max_rows + 1}"
        calls = {
            "handler": lambda event=event: function.lambda_handler(event, context),
            "direct": lambda bounded=bounded: direct.execute(bounded).fetchall(),
            # For "where the time goes": the guard alone (the plan check of a text seen before; of a text seen for
            # the first time, its text and parse checks too), and guard + deadline + query + value shaping
            # in-process, for a text seen before and for a new one.
            "guard": lambda sql=sql: authorize(direct, sql, policy, limits),
            "guard_first": lambda sql=sql: authorize(direct, sql, unseen(policy), limits),
            "in_process": lambda sql=sql: run_query(direct, sql, policy, limits, bench.spec),
            "in_process_first": lambda sql=sql: run_query(direct, sql, unseen(policy), limits, bench.spec),
        }
        # The first call fetches, boots the worker and loads (and, for a query that finds nothing, builds the profile).
        answer = body_of(calls["handler"]())
        interleaved(calls, 2)
        samples = interleaved(calls, repeat)
        naive = interleaved({"naive": lambda sql=sql: naive_call(bench.spec, csv_path, sql)}, naive_repeat(rows))
        measured = {k: summary(v) for k, v in {**samples, **naive}.items()}
        results.append(
            {"label": label, "sql": sql, "rows": answer["count"], "hints": len(answer.get("hints", [])), **measured}
        )
        print(ratio_line(results[-1]), file=sys.stderr)
    function.function.close()
    profile_ms = [timed(lambda: build_profile(direct, bench.spec)) for _ in range(3)]
    direct.close()
    return results, statistics.median(profile_ms)


def unseen(policy: QueryPolicy) -> QueryPolicy:
    """The same policy with no text checked yet: what a text the worker has not seen before costs."""
    return replace(policy, checked_texts={})


def ratio_line(query: dict[str, Any]) -> str:
    """One query's warm p50 against bare DuckDB's on the same data, and the in-process path for a text seen before
    and for a new one."""
    handler, direct = query["handler"]["p50"], query["direct"]["p50"]
    return (
        f"  {query['label']}: handler p50 {handler:.2f} ms, DuckDB alone {direct:.2f} ms, {handler / direct:.2f}×"
        f" (in-process {query['in_process']['p50']:.2f} ms; new text {query['in_process_first']['p50']:.2f} ms)"
    )


def timed(call: Callable[[], Any]) -> float:
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000


def direct_connection(bench: Bench, csv_path: Path, limits: QueryLimits) -> Any:
    """An open connection holding the data as the worker does from a published dataset (its prepared DuckDB file,
    attached read-only, with the spec's names and macros), with its thread count and memory limit but none of its
    checks."""
    import duckdb

    config = {"threads": limits.threads, "memory_limit": f"{limits.duckdb_memory_mb}MB"}
    table_file = BUILD / "direct" / f"{bench.spec.name}-direct.duckdb"
    table_file.parent.mkdir(parents=True, exist_ok=True)
    table_file.unlink(missing_ok=True)
    write_dataset_file(bench.spec, csv_path, table_file, lambda db: duckdb.connect(str(db), config=config))
    con = duckdb.connect(config=config)
    attach_dataset_file(con, bench.spec, table_file)
    return con


def warm_repeat(rows: int, repeat: int) -> int:
    return repeat if rows <= 100_000 else max(30, repeat // 4)


def naive_repeat(rows: int) -> int:
    return 20 if rows <= 10_000 else 5 if rows <= 100_000 else 3


# ---------------------------------------------------------------- load formats


def load_formats(bench: Bench, csv_path: Path) -> dict[str, dict[str, float]]:
    """The two ways a worker can hold the data, on the same CSV: first boot, a successor's boot (what a worker
    killed by a runaway query costs the next call), the memory it then holds, and a full-scan query."""
    limits = QueryLimits.for_function(LAMBDA_MEMORY_MB, 30.0)
    work = BUILD / "formats"
    aggregate = next(sql for label, sql in bench.queries.items() if "aggregate" in label)
    results = {}
    for name in ("memory", "file"):
        table_file = work / f"{bench.spec.name}-bench.duckdb" if name == "file" else None
        started = time.perf_counter()
        first = QueryWorker(bench.spec, limits, work, csv_path=csv_path, database=table_file)
        boot_ms = (time.perf_counter() - started) * 1000
        started = time.perf_counter()
        successor = QueryWorker(bench.spec, limits, work, csv_path=csv_path, database=table_file)
        restart_ms = (time.perf_counter() - started) * 1000
        successor.query(aggregate)
        query = interleaved({"q": lambda worker=successor: worker.query(aggregate)}, 10)["q"]
        results[name] = {
            "boot_ms": boot_ms,
            "restart_ms": restart_ms,
            "held_mb": max(map(process_rss_mb, children())),  # the workers alive now
            "aggregate_ms": statistics.median(query),
        }
        successor.close()
        first.close()
    return results


PREPARED_PROBE = """
import sys, time, json
t0 = time.perf_counter()
import duckdb
con = duckdb.connect(config={{"threads": 1}})
t1 = time.perf_counter()
if {kind!r} == "DuckDB file":
    con.execute("ATTACH '{path}' AS dataset (READ_ONLY)")
    table = "dataset.main.{table}"
else:
    con.execute("CREATE TABLE {table} AS SELECT * FROM read_parquet('{path}')")
    table = "{table}"
t2 = time.perf_counter()
con.execute({aggregate!r}.replace(" FROM {table}", " FROM " + table)).fetchall()
t3 = time.perf_counter()
print(json.dumps({{"open_ms": (t2 - t1) * 1000, "first_aggregate_ms": (t3 - t2) * 1000, "total_ms": (t3 - t0) * 1000}}))
"""


def prepared_formats(bench: Bench, csv_path: Path) -> dict[str, dict[str, float]]:
    """The two forms a publisher could prepare, on the same data: a DuckDB file attached read-only (what ships) and
    Parquet loaded into memory (Parquet read in place would need the file system the sandbox closes). Size, and a
    fresh one-CPU process from `import duckdb` to the first full-scan answer, median of 3."""
    import duckdb

    work = BUILD / "formats"
    work.mkdir(parents=True, exist_ok=True)
    database, parquet = work / f"{bench.spec.name}-prepared.duckdb", work / f"{bench.spec.name}-prepared.parquet"
    database.unlink(missing_ok=True)
    write_dataset_file(bench.spec, csv_path, database, lambda db: duckdb.connect(str(db)))
    with duckdb.connect() as con:
        con.execute(f"ATTACH '{database}' AS dataset (READ_ONLY)")
        con.execute(f"COPY dataset.main.{bench.spec.table} TO '{parquet}' (FORMAT parquet, COMPRESSION zstd)")
    aggregate = next(sql for label, sql in bench.queries.items() if "aggregate" in label)
    results = {}
    for kind, path in (("DuckDB file", database), ("Parquet", parquet)):
        probe = PREPARED_PROBE.format(kind=kind, path=path, table=bench.spec.table, aggregate=aggregate)
        runs = [
            json.loads(subprocess.run(["taskset", "-c", "0", sys.executable, "-c", probe], capture_output=True,
                                      text=True, check=True).stdout)
            for _ in range(3)
        ]  # fmt: skip
        results[kind] = {k: statistics.median(r[k] for r in runs) for k in runs[0]} | {"mb": path.stat().st_size / 1e6}
    return results


def thread_scaling(bench: Bench, csv_path: Path) -> dict[str, float]:
    """The full-scan query on an open connection with 1 and 2 DuckDB threads (1,769 and 3,538 MB on Lambda)."""
    import duckdb

    aggregate = next(sql for label, sql in bench.queries.items() if "aggregate" in label)
    medians = {}
    for threads in (1, 2):
        con = duckdb.connect(config={"threads": threads})
        load_dataset(con, bench.spec, csv_path)
        medians[f"threads_{threads}_ms"] = statistics.median(
            interleaved({"q": lambda con=con: con.execute(aggregate).fetchall()}, 10)["q"]
        )
        con.close()
    return medians


# ---------------------------------------------------------------- driver


def bench_one(
    bench: Bench, rows: int, repeat: int, traced_at: int, formats_from: int, warm_only: bool = False
) -> dict[str, Any]:
    """One dataset at one size, published as `make upload-data` does (the CSV and its prepared DuckDB file), and
    the same CSV alone under csv-only/, where the function falls back to parsing it (the design before)."""
    csv_path = dataset_csv(bench, rows)
    key = f"{bench.spec.name}-{rows}.csv"
    published = publish(bench.spec, csv_path, "bench", key)
    s3.upload("bench", f"csv-only/{key}", csv_path)
    uri, csv_only = f"s3://bench/{key}", f"s3://bench/csv-only/{key}"
    print(f"{bench.spec.name} × {rows:,}", file=sys.stderr)
    runs = 5 if rows <= 100_000 else 3
    queries, profile_ms = warm(bench, csv_path, uri, rows, warm_repeat(rows, repeat))
    result: dict[str, Any] = {
        "dataset": bench.spec.name,
        "rows": rows,
        "csv_mb": csv_path.stat().st_size / 1e6,
        "prepared_mb": published.prepared.bytes / 1e6,
        "prepare_s": published.prepared.seconds,
        "queries": queries,
        "profile_ms": profile_ms,
    }
    if warm_only:
        return result
    result |= {
        "cold": cold_starts(bench, uri, runs),
        "cold_variants": {
            "one CPU": cold_starts(bench, uri, runs, one_cpu=True),
            "CSV only, one CPU": cold_starts(bench, csv_only, runs, one_cpu=True),
        },
    }
    if rows == traced_at:
        result["cold_variants"]["X-Ray on"] = cold_starts(bench, uri, 5, traced=True)
    if rows >= formats_from:
        result["formats"] = load_formats(bench, csv_path)
        result["prepared_formats"] = prepared_formats(bench, csv_path)
    if rows >= 1_000_000:
        result["threads"] = thread_scaling(bench, csv_path)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, nargs="+", default=[1_000, 10_000, 100_000, 1_000_000])
    parser.add_argument("--datasets", nargs="+", choices=sorted(BENCHES), default=sorted(BENCHES))
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--out", type=Path, default=BUILD / "sql.json")
    parser.add_argument("--warm-only", action="store_true", help="only the warm calls and the profile build")
    args = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # moto's server logs every request
    server = serve_s3("bench")
    os.environ.update(
        POWERTOOLS_LOG_LEVEL="INFO",
        POWERTOOLS_TRACE_DISABLED="1",
        AWS_LAMBDA_FUNCTION_MEMORY_SIZE=str(LAMBDA_MEMORY_MB),
    )
    try:
        runs = [
            bench_one(
                BENCHES[name], rows, args.repeat, traced_at=10_000, formats_from=100_000, warm_only=args.warm_only
            )
            for name in args.datasets
            for rows in args.rows
        ]
    finally:
        server.stop()
    machine = {"cpus": os.cpu_count(), "python": sys.version.split()[0], "lambda_memory_mb": LAMBDA_MEMORY_MB}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"machine": machine, "runs": runs}, ensure_ascii=False, indent=1), encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
