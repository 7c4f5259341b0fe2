"""The SQL attack corpus (tests/attacks/sql.jsonl) and how a response is classified against it."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

from tooling.doors import Door, reply_of
from tooling.local import ROOT, LambdaContext, sql_event

from search_core.catalogue import SQL_TABLES

CORPUS: list[dict[str, Any]] = [
    json.loads(line) for line in (ROOT / "tests" / "attacks" / "sql.jsonl").open(encoding="utf-8") if line.strip()
]
# What {table}, {file} and {column} stand for in each SQL function of the catalogue, and its two tools.
TARGETS = {
    name: {
        "table": spec.table,
        "file": spec.file_name,
        "column": spec.columns[0].name,
        "search": spec.search_operation,
        "profile": spec.profile_operation,
    }
    for name, spec in SQL_TABLES.items()
}
_ABORTED = ("中断しました", "強制終了しました", "異常終了しました")


def plant_canaries(canary_file: Path, cache_dir: Path, table: str, secret: str) -> dict[str, Any]:
    """Put a canary file in the worker's own DuckDB folder (which `enable_external_access=false` alone leaves
    readable) once the worker is up; return what the corpus's {canary_file}, {temp_dir}, {temp_canary} and
    {temp_canary_name} stand for."""
    temp_dir = cache_dir / f"{table}-worker" / "duckdb-tmp"
    temp_canary = temp_dir / "canary-temp.csv"
    temp_canary.write_text(f"secret\n{secret}\n", encoding="utf-8")
    return {"canary_file": canary_file, "temp_dir": temp_dir, "temp_canary": temp_canary,
            "temp_canary_name": temp_canary.name}  # fmt: skip


def sql_of(case: dict[str, Any], name: str, places: dict[str, Any]) -> str:
    """The case's SQL for the function `name`, with its placeholders filled."""
    return str(case["sql"]).format(**places, **TARGETS[name])


def ask(function: ModuleType, name: str, sql: str) -> dict[str, Any]:
    """Send `sql` to a loaded SQL function in a real Bedrock event."""
    response: dict[str, Any] = function.lambda_handler(sql_event(name, sql), LambdaContext())
    return response


def ask_through(door: Door, name: str, sql: str) -> dict[str, Any]:
    """Send `sql` to SQL function `name`'s search tool through `door`."""
    return door.call(name, TARGETS[name]["search"], {"sql_query": sql})


def look_through(door: Door, name: str, column: str | None = None) -> dict[str, Any]:
    """Ask SQL function `name`'s profile tool through `door` (about `column` alone, if given)."""
    return door.call(name, TARGETS[name]["profile"], {} if column is None else {"column": column})


def outcome(response: dict[str, Any]) -> str:
    """ok, aborted (time or memory), failed (DuckDB refused) or rejected (the guard refused), from any door."""
    reply = reply_of(response)
    if reply.ok:
        return "ok"
    error = reply.body["error"]
    if any(marker in error for marker in _ABORTED):
        return "aborted"
    return "failed" if error.startswith("SQL の実行エラー") else "rejected"


def matches(expected: str, actual: str) -> bool:
    return expected == actual or expected == "any" or (expected == "error" and actual in ("rejected", "failed"))


def claims_hold(case: dict[str, Any], body: Any) -> list[str]:
    """What an answer without rows got wrong against the case's `matched` (condition → whether DuckDB finds rows for
    it alone), `message_has` and `message_lacks` (texts its message must and must not hold); empty when all is as the
    case says."""
    wrong = []
    found = {hint["condition"]: hint.get("matched") for hint in body.get("hints") or []}
    for condition, matched in (case.get("matched") or {}).items():
        if found.get(condition) is not matched:
            wrong.append(f"{condition}: matched {found.get(condition)!r}, expected {matched!r}")
    message = body.get("message") or ""
    wrong += [f"message lacks {text!r}" for text in case.get("message_has") or [] if text not in message]
    wrong += [f"message holds {text!r}" for text in case.get("message_lacks") or [] if text in message]
    return wrong
