"""Case-law search benchmark: the prepared index against DuckDB and SQLite LIKE scans, on the same data.

    .venv/bin/python scripts/bench_cases.py [--decisions 20000] [--chars 20000] [--repeat 30]

Generates (once, cached under build/bench/) a SQLite cases.db shaped like the existing system's, prepares it,
then measures in one run: preparation time, cold load (fresh process: open + first search) with its peak memory,
warm search latency p50/p95 over typical queries, and the same queries as a DuckDB scan (contains() on the
normalised text, the exact semantics) and as the existing tool's SQLite LIKE. Every query's results are checked
to be identical to the exact scan.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tooling.local import LAYER, ROOT

from search_core.cases.prepare import FORMAT_VERSION, prepare

BUILD = ROOT / "build" / "bench"
COURTS = [
    "東京地方裁判所",
    "東京地裁",
    "大阪地方裁判所",
    "大阪高裁",
    "名古屋高等裁判所",
    "最高裁判所第一小法廷",
    "最高裁判所第二小法廷",
    "知財高裁",
    "横浜地方裁判所川崎支部",
    "札幌家裁",
    "福岡地方裁判所",
    "京都簡裁",
]
TOPICS = [
    "損害賠償",
    "不法行為",
    "過失",
    "債務不履行",
    "売買契約",
    "賃貸借契約",
    "発信者情報",
    "開示",
    "名誉毀損",
    "特許権",
    "侵害",
    "差止",
    "著作権",
    "労働契約",
    "解雇",
    "残業代",
    "相続",
    "遺産分割",
    "離婚",
    "親権",
    "交通事故",
    "後遺障害",
    "慰謝料",
    "過払金",
    "不当利得",
    "保証債務",
    "抵当権",
    "行政処分",
    "取消",
    "国家賠償",
]
KANJI = (
    "人事件原告被告裁判所判決主文理由事実認定証拠請求棄却控訴上告申立契約金額支払義務責任損害賠償行為違法"
    "過失故意因果関係相当期間通知到達解除履行債権債務当事者主張判断趣旨全体弁論経緯取引慣行解釈適用法律条項"
    "規定効力無効取消変更確認登記所有占有引渡明渡賃料更新期限利息遅延計算方法基準算定評価鑑定意見書面作成提出"
)
SENTENCES = [
    "{p}は、{t}に基づき、{q}に対し、金{a}円の支払を求める。",
    "証拠（甲第{n}号証）及び弁論の全趣旨によれば、{t}の事実が認められる。",
    "民法第{art}条の{t}の要件について検討する。",
    "{q}は、{t}について争い、{p}の請求は理由がないと主張する。",
    "当裁判所は、{t}に関する{p}の主張は採用することができないと判断する。",
    "以上によれば、{p}の請求は、金{a}円及びこれに対する遅延損害金の支払を求める限度で理由がある。",
    "本件における{t}の成否は、{w}の評価に関わる。",
    "{w}及び{w}の点を総合すると、{t}が認められる。",
]


def random_word(rng: random.Random) -> str:
    return "".join(rng.choice(KANJI) for _ in range(rng.randint(2, 4)))


def decision_text(rng: random.Random, chars: int, topics: list[str]) -> str:
    parts: list[str] = []
    length = 0
    while length < chars:
        sentence = rng.choice(SENTENCES).format(
            p=rng.choice(["原告", "控訴人", "上告人", "申立人"]),
            q=rng.choice(["被告", "被控訴人", "被上告人", "相手方"]),
            t=rng.choice(topics),
            w=random_word(rng),
            a=f"{rng.randint(1, 9999) * 1000:,}",
            n=rng.randint(1, 99),
            art=rng.choice(["七百九", "709", "四百十五", "415", "九十", "90", "七百十五", "715"]),
        )
        parts.append(sentence)
        length += len(sentence)
    return "".join(parts)


def era_date(rng: random.Random) -> str:
    year = rng.randint(1995, 2025)
    month, day = rng.randint(1, 12), rng.randint(1, 28)
    style = rng.random()
    if style < 0.4:
        return f"{year}-{month:02d}-{day:02d}"
    era, base = ("令和", 2018) if year >= 2019 else ("平成", 1988)
    era_year = "元" if year - base == 1 else str(year - base)
    text = f"{era}{era_year}年{month}月{day}日"
    return text.translate(str.maketrans("0123456789", "０１２３４５６７８９")) if style > 0.8 else text


def generate(path: Path, decisions: int, chars: int) -> None:
    rng = random.Random(20251121)
    partial = path.with_suffix(".partial")
    partial.unlink(missing_ok=True)
    con = sqlite3.connect(partial)
    con.execute(
        "CREATE TABLE cases (doc_id TEXT PRIMARY KEY, court TEXT, date TEXT, case_number TEXT, case_name TEXT,"
        " main_text TEXT, facts_and_reasons TEXT, source_url TEXT)"
    )
    for i in range(decisions):
        topics = rng.sample(TOPICS, 3)
        con.execute(
            "INSERT INTO cases VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (f"D{i:06d}", rng.choice(COURTS), era_date(rng), f"令和{rng.randint(1, 7)}年(ワ)第{i}号",
             f"{topics[0]}請求事件", "被告は、原告に対し、金100万円を支払え。", decision_text(rng, chars, topics),
             f"https://example.jp/hanrei/{i}"),
        )  # fmt: skip
    con.commit()
    con.close()
    partial.rename(path)


QUERIES = [
    {"keywords": "損害賠償"},
    {"keywords": "民法 第709条 過失"},
    {"keywords": "発信者情報 開示 名誉毀損"},
    {"keywords": "特許権 侵害", "court": "知財高裁"},
    {"keywords": "解雇 残業代", "court": "東京地裁"},
    {"keywords": "相続 遺産分割", "date_from": "2019-05-01", "date_to": "2021-12-31"},
    {"keywords": "交通事故 後遺障害 慰謝料 第七百十五条"},
    {"keywords": "過払金 不当利得 国家賠償"},
]

PROBE = """
import json, sys, time
t0 = time.perf_counter()
sys.path.insert(0, {layer!r})
from datetime import date
from pathlib import Path
from search_core.cases.database import open_cases
from search_core.cases.courts import canonical_court
from search_core.cases.models import CaseQuery
from search_core.cases.query import parse
from search_core.sql.limits import QueryLimits
from search_core.storage.cache import LocalCopy
limits = QueryLimits.for_function({memory_mb}, 30.0)
index = open_cases(LocalCopy(Path({db!r}), "bench"), limits, Path({work!r}))
t1 = time.perf_counter()
def query(q):
    court = canonical_court(q["court"]) if q.get("court") else None
    d = lambda k: date.fromisoformat(q[k]) if q.get(k) else None
    return CaseQuery(parse(q["keywords"]), 5, court, d("date_from"), d("date_to"))
queries = json.loads({queries!r})
first = [d.doc_id for d in index.search(query(queries[0])).decisions]
t2 = time.perf_counter()
timings, results = [], []
for q in queries:
    samples = []
    for _ in range({repeat}):
        s = time.perf_counter(); found = index.search(query(q)); samples.append((time.perf_counter() - s) * 1000)
    timings.append(samples); results.append([d.doc_id for d in found.decisions])
# VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the parent across fork and exec.
rss = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:")) / 1024
print(json.dumps({{"open_ms": (t1 - t0) * 1000, "first_ms": (t2 - t1) * 1000, "timings": timings,
                   "results": results, "peak_rss_mb": rss}}))
"""


def indexed(db: Path, repeat: int, memory_mb: int) -> dict[str, object]:
    probe = PROBE.format(layer=str(LAYER), db=str(db), work=str(BUILD / "work"), memory_mb=memory_mb,
                         queries=json.dumps(QUERIES), repeat=repeat)  # fmt: skip
    output = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(output.stdout.strip().splitlines()[-1])
    return result


def reference(raw: Path) -> Path:
    """A plain DuckDB table of the normalised texts: what a scan without the index has to read."""
    import duckdb

    from search_core.cases.courts import canonical_court
    from search_core.cases.dates import parse_decision_date
    from search_core.cases.prepare import search_text
    from search_core.cases.source import read_decisions

    path = raw.with_suffix(f".reference.v{FORMAT_VERSION}.duckdb")
    if path.exists():
        return path
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE docs (doc_id VARCHAR, court_canonical VARCHAR, date DATE, text VARCHAR)")
    rows = [
        (row["doc_id"], canonical_court(row["court"] or ""), parse_decision_date(row["date"]), search_text(row))
        for row in read_decisions(raw)
    ]
    con.executemany("INSERT INTO docs VALUES (?, ?, ?, ?)", rows)
    con.close()
    return path


def duckdb_scan(reference_db: Path) -> tuple[list[float], list[list[str]]]:
    """The exact semantics by brute force: contains() of every plain term (and every literal piece of a citation) on
    the normalised text in DuckDB, newest first; then each citation's pattern on those rows in Python (RE2 has no
    look-behind), until five pass."""
    import duckdb

    from search_core.cases.citations import Citation
    from search_core.cases.courts import canonical_court
    from search_core.cases.query import parse

    con = duckdb.connect(str(reference_db), read_only=True)
    timings, results = [], []
    for q in QUERIES:
        terms = [t for clause in parse(q["keywords"]).clauses for t in clause]  # AND of single terms in QUERIES
        cited = [t for t in terms if isinstance(t, Citation)]
        plain = [p for t in terms for p in (t.pieces if isinstance(t, Citation) else (str(t),))]
        started = time.perf_counter()
        cursor = con.execute(
            """SELECT doc_id, text FROM docs WHERE len(list_filter($k, lambda k: NOT contains(text, k))) = 0
            AND ($court IS NULL OR contains(court_canonical, $court))
            AND ($from IS NULL OR date >= CAST($from AS DATE)) AND ($to IS NULL OR date <= CAST($to AS DATE))
            ORDER BY date DESC NULLS LAST, doc_id""",
            {"k": plain, "court": canonical_court(q["court"]) if q.get("court") else None,
             "from": q.get("date_from"), "to": q.get("date_to")},
        )  # fmt: skip
        found: list[str] = []
        while len(found) < 5 and (row := cursor.fetchone()):
            if all(c.holds(row[1]) for c in cited):
                found.append(row[0])
        timings.append((time.perf_counter() - started) * 1000)
        results.append(found)
    return timings, results


def sqlite_like(db: Path) -> list[float]:
    """The existing tool: LIKE '%kw%' over the seven raw columns for each keyword, sorted by the date string."""
    con = sqlite3.connect(db)
    columns = ["doc_id", "court", "date", "case_number", "case_name", "main_text", "facts_and_reasons"]
    timings = []
    for q in QUERIES:
        words = q["keywords"].split()
        where = " AND ".join("(" + " OR ".join(f"{c} LIKE ?" for c in columns) + ")" for _ in words)
        params = [f"%{w}%" for w in words for _ in columns]
        started = time.perf_counter()
        con.execute(f"SELECT doc_id FROM cases WHERE {where} ORDER BY date DESC LIMIT 5", params).fetchall()
        timings.append((time.perf_counter() - started) * 1000)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--decisions", type=int, default=20_000)
    parser.add_argument("--chars", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--memory-mb", type=int, default=3008, help="the Lambda memory the limits are sized for")
    args = parser.parse_args()
    BUILD.mkdir(parents=True, exist_ok=True)
    raw = BUILD / f"cases-{args.decisions}x{args.chars}.db"
    prepared = raw.with_suffix(f".v{FORMAT_VERSION}.duckdb")  # a new format is prepared anew
    if not raw.exists():
        started = time.perf_counter()
        generate(raw, args.decisions, args.chars)
        print(f"generated {raw.name} in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    if not prepared.exists():
        stats = prepare(raw, prepared)
        print(f"prepared in {stats.seconds:.0f} s ({stats.grams:,} grams)", file=sys.stderr)
    run = indexed(prepared, args.repeat, args.memory_mb)
    scan_ms, expected = duckdb_scan(reference(raw))
    like_ms = sqlite_like(raw)
    timings = run["timings"]
    assert isinstance(timings, list)
    print(f"# Case-law search: {args.decisions:,} decisions × ~{args.chars:,} characters")
    print(f"raw SQLite {raw.stat().st_size / 1e9:.2f} GB, prepared DuckDB {prepared.stat().st_size / 1e9:.2f} GB\n")
    print("| query | indexed p50 ms | indexed p95 ms | DuckDB scan ms | SQLite LIKE ms | same results as scan |")
    print("|---|---:|---:|---:|---:|---|")
    for q, samples, scan, like, got, want in zip(
        QUERIES, timings, scan_ms, like_ms, run["results"], expected, strict=True
    ):  # type: ignore[call-overload]
        ordered = sorted(samples)
        label = " ".join(f"{k}={v}" for k, v in q.items())
        print(f"| {label} | {statistics.median(ordered):.1f} | {ordered[int(0.95 * len(ordered)) - 1]:.1f} "
              f"| {scan:.0f} | {like:.0f} | {'yes' if got == want else f'NO {got} != {want}'} |")  # fmt: skip
    all_samples = [s for samples in timings for s in samples]
    print(
        f"\nall queries: indexed p50 {statistics.median(all_samples):.1f} ms, "
        f"p95 {sorted(all_samples)[int(0.95 * len(all_samples)) - 1]:.1f} ms; "
        f"DuckDB scan median {statistics.median(scan_ms):.0f} ms; "
        f"SQLite LIKE median {statistics.median(like_ms):.0f} ms"
    )
    print(f"cold load: open {run['open_ms']:.0f} ms + first search {run['first_ms']:.0f} ms; "
          f"peak RSS {run['peak_rss_mb']:.0f} MB")  # fmt: skip


if __name__ == "__main__":
    main()
