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
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.update(POWERTOOLS_TRACE_DISABLED="1", POWERTOOLS_LOG_LEVEL="WARNING")

from local_mcp.server import stdio_client
from tooling.doors import AgentDoor, Door, GatewayDoor, McpDoor
from tooling.local import LambdaContext, close_function, import_function

from search_core.catalogue import ACTION_GROUPS

REPEATS = 200
# Each action group's example calls, as its kind gives them.
CALLS = [
    (name, call.tool, call.arguments) for name, group in ACTION_GROUPS.items() for call in group.kind.example_calls()
]


def median_ms(call: Callable[[], object]) -> float:
    call()  # the first call loads the data
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def derive_tools_ms(module: ModuleType) -> float:
    start = time.perf_counter()
    module.function.tools  # noqa: B018 (what the first Gateway call derives)
    return (time.perf_counter() - start) * 1000


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
        derived_ms = {name: derive_tools_ms(module) for name, module in functions.items()}
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
        "\nThe Gateway's door derives a function's tools from its resolver on its first call, once per execution "
        f"environment: {', '.join(f'{name} {ms:.1f} ms' for name, ms in derived_ms.items())}. "
        f"The local server lists its tools {listed_s:.2f} s after it starts."
    )


if __name__ == "__main__":
    main()
