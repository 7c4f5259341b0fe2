"""Case-law search at full-corpus scale: the prepared index against a DuckDB scan and SQLite LIKE, on the same data.

    .venv/bin/python scripts/bench_cases.py [--decisions 100000] [--repeat 20]

Generates (once, cached under build/bench/) a corpus with tooling/case_corpus.py and prepares it, measuring the time
and peak memory of preparing. Then, in one run:

- the index, in a fresh process pinned to one CPU with the limits of a 1,769 MB function (one vCPU): cold load
  (open, then the first search) and its peak memory, then every query `--repeat` times (p50/p95), built and bounded
  as the function does (kinds.case_law.service.case_query, the deadline of the default 5 s QUERY_TIMEOUT_SECONDS);
- the same queries as a DuckDB scan (one thread) of a plain table of the normalised texts (and of the parts a term
  may be confined to: 主文, 事件名), newest first, checked with the same exact test, timed until its first five; the
  scan then runs to the end to count every match;
- the queries that are only words as the existing tool's SQLite LIKE over the raw columns.

Every query's five decisions and its count must equal the scan's (a count marked "at least" must not exceed it).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sqlite3
import statistics
import subprocess
import sys
import time
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tooling.case_corpus import write as write_corpus
from tooling.local import LAYER, ROOT

from search_core.fulltext.terms import DateSpan, Phrase, Term
from search_core.kinds.case_law.models import CaseQuery
from search_core.kinds.case_law.service import case_query
from search_core.kinds.case_law.store.build import FORMAT_VERSION
from search_core.kinds.case_law.store.index import relevance
from search_core.kinds.case_law.text.courts import names_level

BUILD = ROOT / "build" / "bench"
LIMIT = 5
ONE_VCPU_MB = 1769  # Lambda gives one full vCPU at 1,769 MB

TYPICAL = [
    {"keywords": "損害賠償"},
    {"keywords": "民法 第709条 過失"},
    {"keywords": "発信者情報 開示 名誉毀損"},
    {"keywords": "特許権 侵害", "court": "知財高裁"},
    {"keywords": "解雇 残業代", "court": "東京地裁"},
    {"keywords": "相続 遺産分割", "date_from": "2019-05-01", "date_to": "2021-12-31"},
    {"keywords": "交通事故 後遺障害 慰謝料 第七百十五条"},
    {"keywords": "過払金 不当利得 国家賠償"},
]
OPERATORS = [
    {"keywords": "名誉毀損 OR 著作権 差止"},
    {"keywords": "損害賠償 -交通事故 -不法行為"},
    {"keywords": '"弁論の全趣旨" 安全配慮義務'},
    {"keywords": "民法709条1項"},
    {"keywords": "会社法第423条 株主代表訴訟"},
    {"court": "最高裁判所"},
    {"court": "知財高裁", "date_from": "2020-01-01", "date_to": "2020-12-31"},
    {"court": "高裁"},
    {"keywords": "300万円"},
    {"keywords": "主文:棄却 損害賠償"},
    {"keywords": "民法709条 主文:300万円"},
    {"keywords": "会社法第423条の2"},
]
# Beyond the targets: every match ranked; a month written as a keyword (its decisions and its text); a
# phrase whose character pairs are all common but which no decision holds (every candidate checked in vain).
STRESS = [
    {"keywords": "特許権 侵害", "sort": "relevance"},
    {"keywords": "平成31年4月 慰謝料"},
    {"keywords": "存在しない言い回し"},
]
QUERIES = TYPICAL + OPERATORS + STRESS

PROBE = """
import json, os, sys, time
os.sched_setaffinity(0, {{0}})
t0 = time.perf_counter()
sys.path.insert(0, {layer!r})
from datetime import date
from pathlib import Path
from search_core.kinds.case_law.service import case_query
from search_core.kinds.case_law.store.database import open_cases
from search_core.engine.limits import QueryLimits
from search_core.storage.cache import LocalCopy
limits = QueryLimits.for_function({memory_mb}, 5.0)  # the function's default QUERY_TIMEOUT_SECONDS
index = open_cases(LocalCopy(Path({db!r}), "bench"), limits, Path({work!r}))
t1 = time.perf_counter()
def query(q):
    d = lambda k: date.fromisoformat(q[k]) if q.get(k) else None
    return case_query(q.get("keywords"), q.get("court"), {limit}, d("date_from"), d("date_to"), q.get("sort", "newest"))
queries = json.loads({queries!r})
index.search(query(queries[0]))
t2 = time.perf_counter()
answers = []
for q in queries:
    samples = []
    found = None
    for _ in range({repeat}):
        s = time.perf_counter()
        try:
            found = index.search(query(q), time.monotonic() + limits.interrupt_seconds)
        except TimeoutError:  # the function answers with its timeout message
            found = None
        samples.append((time.perf_counter() - s) * 1000)
    answers.append({{"timings": samples, "doc_ids": [d.doc_id for d in found.decisions] if found else None,
                    "total": found.total if found else 0, "exact": found.total_exact if found else False}})
# VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the parent across fork and exec.
rss = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:")) / 1024
print(json.dumps({{"open_ms": (t1 - t0) * 1000, "first_ms": (t2 - t1) * 1000, "answers": answers,
                   "peak_rss_mb": rss, "threads": limits.threads}}))
"""

PREPARE = """
import json, sys, time
sys.path.insert(0, {layer!r})
from pathlib import Path
from search_core.kinds.case_law.store.build import prepare
stats = prepare(Path({raw!r}), Path({target!r}))
rss = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:")) / 1024
print(json.dumps({{"seconds": stats.seconds, "grams": stats.grams, "peak_rss_mb": rss}}))
"""


def _python(code: str) -> dict[str, Any]:
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(output.stdout.strip().splitlines()[-1])
    return result


def prepared_file(raw: Path) -> tuple[Path, dict[str, Any]]:
    """The prepared database of `raw` (a new format is prepared anew), and how preparing it went."""
    target = raw.with_suffix(f".v{FORMAT_VERSION}.duckdb")
    record = target.with_suffix(".json")
    if not target.exists() or not record.exists():
        record.write_text(json.dumps(_python(PREPARE.format(layer=str(LAYER), raw=str(raw), target=str(target)))))
    stats: dict[str, Any] = json.loads(record.read_text())
    return target, stats


def indexed(db: Path, repeat: int) -> dict[str, Any]:
    return _python(
        PROBE.format(layer=str(LAYER), db=str(db), work=str(BUILD / "work"), memory_mb=ONE_VCPU_MB, limit=LIMIT,
                     queries=json.dumps(QUERIES), repeat=repeat)
    )  # fmt: skip


def reference(raw: Path) -> Path:
    """A plain DuckDB table of the normalised texts: what a scan without the index has to read."""
    import duckdb

    from search_core.fulltext.dates import parse_decision_date
    from search_core.fulltext.normalize import normalize
    from search_core.kinds.case_law.store.build import search_text
    from search_core.kinds.case_law.store.exports import read_decisions
    from search_core.kinds.case_law.text.courts import canonical_court

    path = raw.with_suffix(f".reference.parts.v{FORMAT_VERSION}.duckdb")  # with the parts a term may be confined to
    if path.exists():
        return path
    partial = path.with_suffix(".partial")
    partial.unlink(missing_ok=True)
    con = duckdb.connect(str(partial))
    con.execute("""CREATE TABLE docs (doc_id VARCHAR, court VARCHAR, court_canonical VARCHAR, date DATE, text VARCHAR,
        main_text VARCHAR, case_name VARCHAR)""")  # fmt: skip
    insert = "INSERT INTO docs VALUES (?, ?, ?, ?, ?, ?, ?)"
    batch: list[tuple[Any, ...]] = []
    for row in read_decisions(raw):
        court = row["court"] or ""
        batch.append((row["doc_id"], court, canonical_court(court), parse_decision_date(row["date"]), search_text(row),
                      normalize(row["main_text"] or ""), normalize(row["case_name"] or "")))  # fmt: skip
        if len(batch) == 1000:
            con.executemany(insert, batch)
            batch.clear()
    if batch:
        con.executemany(insert, batch)
    con.close()
    partial.rename(path)
    return path


def _term_condition(term: Term) -> tuple[str, list[object]]:
    """SQL that holds for every decision the term can match (the exact test follows in Python): one of its pieces
    (a phrase or a citation holds them all, an amount one of its writings), or for a date also the decisions of
    those days."""
    parts: list[object] = list(term.pieces)
    holding = "(" + " OR ".join(["contains(text, ?)"] * len(parts)) + ")"
    if isinstance(term, DateSpan):
        return f"({holding} OR date BETWEEN ? AND ?)", [*parts, term.first, term.last]
    return holding, parts


def _prefilter(query: CaseQuery) -> tuple[str, list[object]]:
    conditions, parameters = ["TRUE"], []
    for clause in query.expression.clauses:
        either = [_term_condition(term) for term in clause]
        conditions.append("(" + " OR ".join(f"({sql})" for sql, _ in either) + ")")
        parameters += [p for _, ps in either for p in ps]
    for term in query.expression.excluded:
        if isinstance(term, Phrase):  # a decision holding its text is excluded whatever else it holds
            conditions.append("NOT contains(text, ?)")
            parameters.append(term.text)
    if query.court:  # courts.py's rule, written again as SQL: a level anywhere; a name where a court's name begins
        if names_level(query.court):
            conditions.append("contains(court_canonical, ?)")
            parameters.append(query.court)
        else:
            conditions.append("(regexp_matches(court_canonical, ?) OR starts_with(court, ?))")
            parameters += ["(^|裁判所|支部)" + re.escape(query.court), query.court_as_written]
    for bound, operator in ((query.date_from, ">="), (query.date_to, "<=")):
        if bound:
            conditions.append(f"date {operator} ?")
            parameters.append(bound)
    return " AND ".join(conditions), parameters


def scanned(reference_db: Path) -> list[dict[str, Any]]:
    """Each query by brute force: the first five newest first (timed) or by relevance, and every match counted."""
    import duckdb

    con = duckdb.connect(str(reference_db), read_only=True, config={"threads": 1})
    answers = []
    for q in QUERIES:
        query = _query(q)
        where, parameters = _prefilter(query)
        started = time.perf_counter()
        cursor = con.execute(f"""SELECT doc_id, text, date, main_text, case_name FROM docs WHERE {where}
            ORDER BY date DESC NULLS LAST, doc_id""", parameters)  # fmt: skip
        matches: list[tuple[float, int, str]] = []
        first_ms = None
        while rows := cursor.fetchmany(256):
            for doc_id, text, day, main_text, case_name in rows:
                parts = {"主文": main_text, "事件名": case_name}
                if query.expression.holds_in(text, day, parts.__getitem__):
                    score = relevance(text, query.expression) if query.by_relevance else 0.0
                    matches.append((-score, len(matches), doc_id))
                    if len(matches) == LIMIT and not query.by_relevance:
                        first_ms = (time.perf_counter() - started) * 1000
        if first_ms is None:
            first_ms = (time.perf_counter() - started) * 1000
        best = sorted(matches) if query.by_relevance else matches
        answers.append({"ms": first_ms, "doc_ids": [doc_id for *_, doc_id in best[:LIMIT]], "total": len(matches)})
    return answers


def sqlite_like(db: Path, q: dict[str, str]) -> float | None:
    """The existing tool: LIKE '%kw%' over the seven raw columns for each keyword, sorted by the date string (only
    for queries of plain words: it has no operators or filters)."""
    words = (q.get("keywords") or "").split()
    if set(q) != {"keywords"} or not words or any(w in ("OR", "-", "NOT") or w[0] in '-"' for w in words):
        return None
    con = sqlite3.connect(db)
    columns = ["doc_id", "court", "date", "case_number", "case_name", "main_text", "facts_and_reasons"]
    where = " AND ".join("(" + " OR ".join(f"{c} LIKE ?" for c in columns) + ")" for _ in words)
    started = time.perf_counter()
    con.execute(f"SELECT doc_id FROM cases WHERE {where} ORDER BY date DESC LIMIT 5",
                [f"%{w}%" for w in words for _ in columns]).fetchall()  # fmt: skip
    return (time.perf_counter() - started) * 1000


def corpus_shape(raw: Path) -> str:
    """The corpus in figures: decisions, characters, and how long a decision is."""
    con = sqlite3.connect(f"file:{raw}?mode=ro", uri=True)
    lengths = sorted(n for (n,) in con.execute("SELECT length(main_text) + length(facts_and_reasons) FROM cases"))
    return (f"{len(lengths):,} decisions, {sum(lengths) / 1e9:.2f} billion characters of 主文 and 事実及び理由 "
            f"(median {statistics.median(lengths):,.0f} per decision, 90th percentile "
            f"{lengths[int(0.9 * len(lengths))]:,}, longest {lengths[-1]:,})")  # fmt: skip


def _query(q: dict[str, str]) -> CaseQuery:
    day = {k: date.fromisoformat(q[k]) if q.get(k) else None for k in ("date_from", "date_to")}
    return case_query(q.get("keywords"), q.get("court"), LIMIT, day["date_from"], day["date_to"],
                      q.get("sort", "newest"))  # fmt: skip


def _agrees(got: dict[str, Any], want: dict[str, Any]) -> str:
    if got["doc_ids"] is None:
        return "NO: stopped at the deadline"
    if got["doc_ids"] != want["doc_ids"]:
        return f"NO: {got['doc_ids']} != {want['doc_ids']}"
    if got["exact"] and got["total"] != want["total"]:
        return f"NO: count {got['total']} != {want['total']}"
    return "yes" if got["exact"] else ("yes" if got["total"] <= want["total"] else "NO: count above the scan's")


def _percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[max(0, int(share * len(ordered)) - 1)]


def report(args: argparse.Namespace, raw: Path, prepared: Path, preparing: dict[str, Any], run: dict[str, Any],
           scans: list[dict[str, Any]], likes: list[float | None]) -> None:  # fmt: skip
    print(f"# Case-law search: {args.decisions:,} decisions (tooling/case_corpus.py)")
    print(f"\ncorpus: {corpus_shape(raw)}\n")
    print(f"reproduce: `make bench`, or `.venv/bin/python scripts/bench_cases.py --decisions {args.decisions}`\n")
    print(f"raw SQLite {raw.stat().st_size / 1e9:.2f} GB; prepared DuckDB {prepared.stat().st_size / 1e9:.2f} GB, "
          f"{preparing['grams']:,} grams, prepared in {preparing['seconds']:.0f} s on {os.cpu_count()} CPUs with "
          f"peak RSS {preparing['peak_rss_mb']:,.0f} MB\n")  # fmt: skip
    print("| query | matches | indexed p50 ms | indexed p95 ms | DuckDB scan ms | SQLite LIKE ms | same as scan |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for q, got, want, like in zip(QUERIES, run["answers"], scans, likes, strict=True):
        label = " ".join(f"{k}={v}" for k, v in q.items())
        count = f"{got['total']:,}" if got["exact"] else f"≥{got['total']:,} (of {want['total']:,})"
        like_ms = "—" if like is None else f"{like:,.0f}"
        print(f"| {label} | {count} | {statistics.median(got['timings']):.1f} | {_percentile(got['timings'], 0.95):.1f}"
              f" | {want['ms']:,.0f} | {like_ms} | {_agrees(got, want)} |")  # fmt: skip
    groups = (("typical queries", TYPICAL),
              ("typical, operator, citation and filter-only queries", TYPICAL + OPERATORS),
              ("all queries, stress included", QUERIES))  # fmt: skip
    for name, group in groups:
        samples = [s for q, a in zip(QUERIES, run["answers"], strict=True) if q in group for s in a["timings"]]
        scan_ms = [s["ms"] for q, s in zip(QUERIES, scans, strict=True) if q in group]
        print(f"\n\n{name}: indexed p50 {statistics.median(samples):.1f} ms, p95 {_percentile(samples, 0.95):.1f}"
              f" ms; DuckDB scan median {statistics.median(scan_ms):,.0f} ms", end="")  # fmt: skip
    print(f"\n\ncold load on one CPU ({run['threads']} DuckDB thread): open {run['open_ms']:.0f} ms + first search "
          f"{run['first_ms']:.0f} ms; peak RSS {run['peak_rss_mb']:.0f} MB")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decisions", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    BUILD.mkdir(parents=True, exist_ok=True)
    raw = BUILD / f"cases-{args.decisions}.db"
    if not raw.exists():
        started = time.perf_counter()
        write_corpus(raw, args.decisions)
        print(f"generated {raw.name} in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    prepared, preparing = prepared_file(raw)
    run = indexed(prepared, args.repeat)
    scans = scanned(reference(raw))
    likes = [sqlite_like(raw, q) for q in QUERIES]
    report(args, raw, prepared, preparing, run, scans, likes)
    if any(_agrees(got, want) != "yes" for got, want in zip(run["answers"], scans, strict=True)):
        sys.exit("the index and the scan disagree (see the table)")


if __name__ == "__main__":
    main()
