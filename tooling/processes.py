"""Probes of this process's children and their memory, and the mixed request stream of the load tests."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tooling.local import load_event

SQL = [
    "SELECT event_name, date_time FROM events WHERE cost LIKE '%\"is_free\": true%' ORDER BY start_date",
    "SELECT location->>'venue' AS venue, count(*) AS n FROM events GROUP BY venue ORDER BY n DESC",
    "SELECT * FROM events",
    "SELECT repeat(description, 200) AS long FROM events",
    "SELECT * FROM read_text('/etc/hostname')",
    "DROP TABLE events",
    "SELECT nope FROM events",
]
RUNAWAY = "SELECT count(*) FROM range(1000000000000)"  # every 100th call: interrupted at the deadline


def mixed_events(count: int) -> Iterator[dict[str, Any]]:
    base = load_event("search_events/free_events.json")
    extras = [load_event("search_events/unknown_path.json"), load_event("search_events/invalid_missing_sql.json"), {}]
    for i in range(count):
        if i % 10 == 9:
            yield extras[i % len(extras)]
            continue
        sql = RUNAWAY if i % 100 == 50 else SQL[i % len(SQL)]
        event = dict(base)
        event["requestBody"] = {
            "content": {"application/json": {"properties": [{"name": "sql_query", "type": "string", "value": sql}]}}
        }
        yield event


def process_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def children() -> list[int]:
    me = os.getpid()
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == me:
                    found.append(int(entry.name))
            except (OSError, IndexError, ValueError):
                continue
    return found
