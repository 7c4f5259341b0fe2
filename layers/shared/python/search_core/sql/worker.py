"""The worker process: holds one sandboxed dataset and runs the parent's queries, one JSON line each way.

Run as `python -m search_core.sql.worker`. It lives in its own process so that a query DuckDB cannot stop
(a multi-gigabyte allocation ignores both memory_limit and interrupt) takes down only this process, which
the parent kills and restarts; its environment holds no credentials. It imports DuckDB before it reads its boot
line, so a worker started ahead of its data does that while the parent is still downloading.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import traceback
from functools import cached_property
from pathlib import Path
from typing import IO, Any

from search_core.datasets.loading import load_dataset, write_dataset_file
from search_core.datasets.registry import SQL_DATASETS
from search_core.errors import QueryAborted, SearchError
from search_core.scrub import HostPathNet
from search_core.sql.execute import run_query
from search_core.sql.limits import QueryLimits
from search_core.sql.policy import QueryPolicy
from search_core.sql.sandbox import connect_bounded, open_sandbox

_LEAK_MESSAGE = "結果またはエラーにサーバー内部のパスが含まれるため返せません。データの列だけを選んでください。"


def main() -> None:
    requests = sys.stdin.buffer
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything else printed goes to the log, never into the reply channel
    boot = json.loads(requests.readline())
    _limit_address_space(boot["limits"]["worker_address_space_mb"])
    session = _open_session(boot, replies)
    if session is None:
        return
    for line in requests:
        try:
            reply = session.safe_answer(json.loads(line)["sql"])
        except MemoryError:
            # Python's own heap is exhausted under the address-space cap, and would stay so for the next queries:
            # say why, then exit, so that the parent starts a fresh worker for the next one.
            _send(replies, _error_reply(QueryAborted(session.limits.memory_message)))
            return
        _write_line(replies, reply)


class _Session:
    def __init__(self, boot: dict[str, Any]) -> None:
        self.spec = SQL_DATASETS[boot["dataset"]]
        self.limits = QueryLimits(**boot["limits"])
        csv_path, work_dir = Path(boot["csv_path"]), Path(boot["work_dir"])
        self.host_paths = HostPathNet([*boot["host_paths"], str(work_dir), str(csv_path)])
        if boot.get("table_file") is None:
            self.con = open_sandbox(self.limits, work_dir, lambda c: load_dataset(c, self.spec, csv_path))
            return
        table_file = Path(boot["table_file"])
        if not table_file.exists():  # a restarted worker reopens the file its predecessor wrote
            write_dataset_file(self.spec, csv_path, table_file, lambda db: connect_bounded(self.limits, work_dir, db))
        self.con = open_sandbox(self.limits, work_dir, database=table_file)

    @cached_property
    def policy(self) -> QueryPolicy:
        return QueryPolicy.for_connection(self.con, self.spec.table, self.spec.table_names)

    def safe_answer(self, sql: str) -> str:
        """The answer as its JSON line, unless it carries one of this run's paths in any encoding (the net under
        the guard); serialised once, for the check and the reply alike."""
        reply = _serialised(self.answer(sql))
        if self.host_paths.catches(reply, known=sql):
            print("refused a reply that carried a host path", file=sys.stderr)
            return _serialised({"error": {"kind": "QueryRejected", "message": _LEAK_MESSAGE}})
        return reply

    def answer(self, sql: str) -> dict[str, Any]:
        try:
            result = run_query(self.con, sql, self.policy, self.limits)
        except SearchError as error:
            return _error_reply(error)
        except MemoryError:
            raise
        except Exception:
            traceback.print_exc()
            return {"error": {"kind": "QueryFailed", "message": "クエリの実行中に内部エラーが起きました。"}}
        return {"columns": result.columns, "rows": result.rows, "truncated": result.truncated}


def _open_session(boot: dict[str, Any], replies: IO[bytes]) -> _Session | None:
    try:
        session = _Session(boot)
    except SearchError as error:
        _send(replies, _error_reply(error))
        return None
    except Exception:
        traceback.print_exc()
        _send(
            replies,
            {"error": {"kind": "DataUnavailable", "message": f"データセット「{boot['dataset']}」を読み込めません。"}},
        )
        return None
    _send(replies, {"ready": True})
    return session


def _error_reply(error: SearchError) -> dict[str, Any]:
    return {"error": {"kind": type(error).__name__, "message": error.message}}


def _limit_address_space(megabytes: int) -> None:
    """Turn a single giant allocation into a clean DuckDB error instead of a machine-wide squeeze."""
    limit = megabytes * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _send(replies: IO[bytes], message: dict[str, Any]) -> None:
    _write_line(replies, _serialised(message))


def _serialised(message: dict[str, Any]) -> str:
    # JSON escapes newlines inside strings, so every reply is exactly one line.
    return json.dumps(message, ensure_ascii=False)


def _write_line(replies: IO[bytes], line: str) -> None:
    replies.write(line.encode() + b"\n")
    replies.flush()


if __name__ == "__main__":
    main()
