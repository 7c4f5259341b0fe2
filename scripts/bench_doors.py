"""What each door adds: the same calls as an agent's event, as a Gateway's tool call into lambda_handler, and through
the local MCP server over stdio (the SDK's client), on the bundled sample data; medians in one run.

.venv/bin/python scripts/bench_doors.py > build/bench/doors.md      (make bench does)
"""

from __future__ import annotations

import contextlib
import io
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.update(POWERTOOLS_TRACE_DISABLED="1", POWERTOOLS_LOG_LEVEL="WARNING")

from tooling.doors import AgentDoor, Door, GatewayDoor, McpDoor
from tooling.local import LambdaContext, close_function, import_function
from tooling.mcp_local import stdio_client

from search_core.catalogue import ACTION_GROUPS

REPEATS = 200
CALLS = [
    ("search_events", "searchEvents", {"sql_query": "SELECT count(*) AS n FROM events"}),
    ("search_stores", "searchStores", {"sql_query": "SELECT store_name FROM stores WHERE category = 'カフェ'"}),
    ("search_cases", "searchCases", {"keywords": "損害賠償 慰謝料"}),
    ("search_cases", "readCaseText", {"doc_id": "R05-0930-LONG", "offset": 4000}),
]


def median_ms(call: Callable[[], object]) -> float:
    call()  # the first call loads the data
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def measure(door: Door) -> list[float]:
    with contextlib.redirect_stdout(io.StringIO()):  # metrics print; this script prints the table
        return [median_ms(partial(door.call, group, tool, arguments)) for group, tool, arguments in CALLS]


def measure_agent(door: AgentDoor) -> list[float]:
    """An agent's events, made before the clock starts (the door reads them from events/ on each call)."""
    calls = [(door.functions[group].lambda_handler, door.event(group, tool, args)) for group, tool, args in CALLS]
    with contextlib.redirect_stdout(io.StringIO()):
        return [median_ms(partial(handler, event, LambdaContext())) for handler, event in calls]


def main() -> None:
    cache = tempfile.mkdtemp()
    os.environ["DATA_CACHE_DIR"] = cache
    with contextlib.redirect_stdout(io.StringIO()):
        functions = {name: import_function(name, f"{name}_doors") for name in ACTION_GROUPS}
        start = time.perf_counter()
        functions["search_cases"].function.tools  # noqa: B018 (what the first Gateway call derives)
        derived_ms = (time.perf_counter() - start) * 1000
    agent, gateway = measure_agent(AgentDoor(functions)), measure(GatewayDoor(functions))
    for module in functions.values():
        close_function(module)
    start = time.perf_counter()
    with stdio_client({"PATH": os.environ["PATH"], "DATA_CACHE_DIR": tempfile.mkdtemp()}) as client:
        client.list_tools()
        listed_s = time.perf_counter() - start
        local = measure(McpDoor(client))
    print("# Doors: the same calls through each (scripts/bench_doors.py)\n")
    print(f"Median of {REPEATS} warm calls each, in ms, on the bundled sample data, in one run.\n")
    print("| call | action group | Gateway | local MCP (stdio) |")
    print("|---|---:|---:|---:|")
    for (_, tool, arguments), a, g, m in zip(CALLS, agent, gateway, local, strict=True):
        shown = ", ".join(f"{k}={str(v)[:40]}" for k, v in arguments.items())
        print(f"| {tool}({shown}) | {a:.2f} | {g:.2f} | {m:.2f} |")
    print(
        f"\nThe Gateway's door derives the tools from the resolver on its first call: {derived_ms:.1f} ms, once per "
        f"execution environment. The local server lists its tools {listed_s:.2f} s after it starts."
    )


if __name__ == "__main__":
    main()
