"""Every message between the function and its SQL worker, one JSON line each way; both sides import this module.

The function sends `Boot` once, then one `Query` or `Describe` per call; the worker answers `Ready` (or a `Failure`)
to the boot, `Rows` to a query (followed by `Hinted` when it has no rows) and `Profiled` to a description (or a
`Failure`). A failure crosses as one of four kinds, each a domain error on both sides, so no class name travels as
text.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar

from search_core.advice.hints import EmptyAnswer
from search_core.advice.profile import TableProfile
from search_core.engine.budget import REPLY_BUDGET_BYTES
from search_core.engine.limits import QueryLimits
from search_core.engine.table import TableSpec
from search_core.errors import DataUnavailable, QueryAborted, QueryFailed, QueryRejected, SearchError
from search_core.worker.result import QueryResult


@dataclass(frozen=True)
class Boot:
    """Load `table` and serve it: from `database` if that DuckDB file exists, else from `csv_path` (into
    `database` when given, so that a restarted worker reopens the file instead of parsing the CSV again).

    `host_paths` are the function's own paths, which no answer may carry.
    """

    tag: ClassVar[str] = "boot"
    table: TableSpec
    limits: QueryLimits
    work_dir: str
    csv_path: str | None
    database: str | None
    host_paths: tuple[str, ...]


@dataclass(frozen=True)
class Query:
    tag: ClassVar[str] = "query"
    sql: str
    # The bytes the rows may take in the answer's body: the worker cuts them to that, once (engine/budget.py).
    room: int = REPLY_BUDGET_BYTES


@dataclass(frozen=True)
class Describe:
    """Send the profile of the data (built on first request, then kept for this worker's life)."""

    tag: ClassVar[str] = "describe"


@dataclass(frozen=True)
class Ready:
    tag: ClassVar[str] = "ready"


@dataclass(frozen=True)
class Rows:
    tag: ClassVar[str] = "rows"
    result: QueryResult
    # An answer without rows is sent at once, and `Hinted` follows it: should the hints overrun the deadline and
    # the worker be killed, the empty answer stands.
    hints_follow: bool = False


@dataclass(frozen=True)
class Hinted:
    """Why an answer had no rows (advice/hints.py): what the tested fields hold, and the clock's part in it when a
    condition reads the clock."""

    tag: ClassVar[str] = "hinted"
    why: EmptyAnswer = field(default_factory=EmptyAnswer)


@dataclass(frozen=True)
class Profiled:
    tag: ClassVar[str] = "profiled"
    profile: TableProfile


class FailureKind(Enum):
    REJECTED = "rejected"
    FAILED = "failed"
    ABORTED = "aborted"
    UNAVAILABLE = "unavailable"


_ERROR_OF_KIND: dict[FailureKind, type[SearchError]] = {
    FailureKind.REJECTED: QueryRejected,
    FailureKind.FAILED: QueryFailed,
    FailureKind.ABORTED: QueryAborted,
    FailureKind.UNAVAILABLE: DataUnavailable,
}


@dataclass(frozen=True)
class Failure:
    tag: ClassVar[str] = "failure"
    kind: FailureKind
    message: str
    # The worker exits after this reply (its Python heap is exhausted): the parent replaces it before the next call.
    retiring: bool = False

    @classmethod
    def of(cls, error: SearchError) -> Failure:
        """
        >>> Failure.of(QueryAborted("遅すぎます")).kind
        <FailureKind.ABORTED: 'aborted'>
        """
        kind = next((k for k, cls_ in _ERROR_OF_KIND.items() if isinstance(error, cls_)), FailureKind.FAILED)
        return cls(kind, error.message)

    def error(self) -> SearchError:
        return _ERROR_OF_KIND[self.kind](self.message)


Request = Boot | Query | Describe
Reply = Ready | Rows | Hinted | Profiled | Failure


def encode(message: Request | Reply) -> str:
    """The message as one JSON line (JSON escapes newlines inside strings), without the line end.

    >>> encode(Failure(FailureKind.REJECTED, "SELECT のみ"))
    '{"type": "failure", "kind": "rejected", "message": "SELECT のみ", "retiring": false}'
    """
    return json.dumps({"type": message.tag, **_fields(message)}, ensure_ascii=False)


def decode_request(line: bytes | str) -> Request:
    data = json.loads(line)
    kind = data.pop("type")
    if kind == Query.tag:
        return Query(sql=str(data["sql"]), room=int(data.get("room", REPLY_BUDGET_BYTES)))
    if kind == Describe.tag:
        return Describe()
    if kind == Boot.tag:
        return Boot(
            table=TableSpec.from_dict(data["table"]),
            limits=QueryLimits(**data["limits"]),
            work_dir=data["work_dir"],
            csv_path=data["csv_path"],
            database=data["database"],
            host_paths=tuple(data["host_paths"]),
        )
    raise ValueError(f"not a request: {kind!r}")


def decode_reply(line: bytes | str) -> Reply:
    """
    >>> decode_reply(encode(Rows(QueryResult(["a"], [[1]], truncated=True)))) == Rows(QueryResult(["a"], [[1]], True))
    True
    """
    data = json.loads(line)
    kind = data.pop("type")
    if kind == Ready.tag:
        return Ready()
    if kind == Rows.tag:
        return Rows(QueryResult.from_dict(data["result"]), bool(data.get("hints_follow")))
    if kind == Hinted.tag:
        return Hinted(EmptyAnswer.from_dict(data["why"]))
    if kind == Profiled.tag:
        return Profiled(TableProfile.from_dict(data["profile"]))
    if kind == Failure.tag:
        return Failure(FailureKind(data["kind"]), str(data["message"]), bool(data.get("retiring", False)))
    raise ValueError(f"not a reply: {kind!r}")


def _fields(message: Request | Reply) -> dict[str, Any]:
    if isinstance(message, Boot):
        return {
            "table": message.table.to_dict(),
            "limits": message.limits.to_dict(),
            "work_dir": message.work_dir,
            "csv_path": message.csv_path,
            "database": message.database,
            "host_paths": list(message.host_paths),
        }
    if isinstance(message, Failure):
        return {"kind": message.kind.value, "message": message.message, "retiring": message.retiring}
    if isinstance(message, Profiled):
        return {"profile": message.profile.to_dict()}
    if isinstance(message, Hinted):
        return {"why": message.why.to_dict()}
    if isinstance(message, Rows):
        return {"result": message.result.to_dict(), "hints_follow": message.hints_follow}
    return dict(vars(message))
