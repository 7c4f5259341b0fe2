"""SQL search over one dataset: fresh data, a supervised worker, metrics, and the agent-facing result."""

from __future__ import annotations

import re
import time
from datetime import date
from functools import cached_property, partial
from typing import Any

from search_core.advice.hints import ClockNote, ClockRange, EmptyAnswer
from search_core.catalogue import PREPARED_SUFFIX
from search_core.datasets.clock import jst_now, jst_now_text
from search_core.datasets.spec import DatasetSpec
from search_core.engine.budget import BUDGET_BYTES, embedded_bytes
from search_core.engine.limits import MAX_ROWS, QueryLimits, sql_too_long
from search_core.engine.quoting import quote_identifier
from search_core.engine.table import TableSpec
from search_core.errors import InvalidRequest, QueryAborted, QueryRejected
from search_core.kinds.sql_table.profile import DatasetProfile, shape_profile
from search_core.kinds.sql_table.responses import SqlSearchResponse
from search_core.observability import logger, metrics
from search_core.settings import Settings
from search_core.storage.cache import LocalCopy, PreparedForm
from search_core.storage.live import LiveDataset
from search_core.worker.client import QueryWorker, WorkerLauncher
from search_core.worker.result import QueryResult

# A dataset's prepared DuckDB file is published beside its CSV: data/events.csv.duckdb (make upload-data).


def prepared_form(spec: TableSpec) -> PreparedForm:
    """How the prepared file of `spec` is found and recognised: it must have been made from the CSV as it is now,
    for this table definition and DuckDB release."""
    return PreparedForm(PREPARED_SUFFIX, spec.fingerprint())


# Read with truncated=true: the rows are a first page, and an agent that lists them as the answer is wrong.
_TRUNCATED_MESSAGE = (
    f"最初の {MAX_ROWS} 行だけです（または長い値を切りました）。全件数は count(*) で、続きは一意な ORDER BY を付けて"
    f" OFFSET {MAX_ROWS} で取得できます。"
)


class SqlSearch:
    """Answers SQL for one dataset; the data is fetched on first use and re-validated by ETag afterwards.

    Each version of the data gets its own worker; a new one replaces the old only once it has booted. Given two
    vCPUs' worth of time, the first worker is started before the first download, so that its own start overlaps it.
    """

    def __init__(self, spec: DatasetSpec, settings: Settings | None = None) -> None:
        self.spec = spec
        self.settings = settings or Settings.from_env()
        self.limits = QueryLimits.for_function(self.settings.memory_mb, self.settings.query_timeout_seconds)
        self._work_dir = self.settings.cache_dir / f"{spec.name}-worker"
        self._launcher = WorkerLauncher(self._work_dir, self.limits.vcpus)
        self._data = LiveDataset(
            spec.name, spec.file_name, self.settings, self._start_worker, QueryWorker.close, prepared_form(spec)
        )
        self._loaded_once = False

    def search(self, sql: str, body_budget: int) -> SqlSearchResponse:
        """Run `sql` and shape its rows into a response whose body fits `body_budget` bytes."""
        if too_long := sql_too_long(sql):  # refused here: a text this long never travels to the worker
            metrics.add_metric(name="RejectedQueries", unit="Count", value=1)
            raise QueryRejected(too_long)
        result = self._run(self._worker(), sql, self._room(body_budget))
        response = self._shape(result)
        metrics.add_metric(name="RowsReturned", unit="Count", value=response.count)
        if response.truncated:
            metrics.add_metric(name="TruncatedResults", unit="Count", value=1)
        logger.info("query answered", sql=sql[:2000], rows=response.count, truncated=response.truncated)
        return response

    def describe(self, column: str | None, body_budget: int) -> DatasetProfile:
        """The columns and a profile of the live data (of `column` alone, if given), fitted to `body_budget`."""
        if column is not None and column not in {c.name for c in self.spec.columns}:
            names = ", ".join(c.name for c in self.spec.columns)
            # Only a name is echoed: a path or a long text sent as `column` is not repeated back.
            shown = f"列 {column} は" if re.fullmatch(r"\w{1,64}", column) else "指定された列は"
            raise InvalidRequest(f"{shown}ありません。{self.spec.table} の列: {names}")
        return shape_profile(self.spec, self._worker().describe(), column, body_budget)

    def warm(self) -> None:
        self.search(f"SELECT count(*) FROM {quote_identifier(self.spec.table)}", BUDGET_BYTES)

    def restored(self) -> None:
        self._data.expire()
        worker = self._data.served()
        if worker is not None:
            worker.revive()

    def close(self) -> None:
        self._data.close()
        self._launcher.close()

    def _worker(self) -> QueryWorker:
        """The worker of the current data; on the first call, one is started ahead of the download."""
        if not self._loaded_once:
            self._launcher.start_ahead()
        worker = self._data.current()
        self._loaded_once = True
        return worker

    def _start_worker(self, local: LocalCopy) -> QueryWorker:
        worker = partial(QueryWorker, self.spec, self.limits, self._work_dir, launcher=self._launcher)
        if local.prepared:
            return worker(database=local.path)
        # A large CSV is served from a DuckDB file made once per version; a small one is held in memory.
        large = not self.limits.holds_in_memory(local.path.stat().st_size)
        return worker(
            csv_path=local.path, database=local.derived_file(self._work_dir, self.spec.name) if large else None
        )

    def _room(self, body_budget: int) -> int:
        """The bytes the rows may take, as `results`, in a body of `body_budget`: what the rest of the largest
        answer with rows leaves (a body's size is its parts' sizes, escaping included)."""
        return body_budget - self._rest_of_body

    @cached_property
    def _rest_of_body(self) -> int:
        """The bytes of the largest answer with rows, but for its rows: worked out once, not on every call."""
        rest = self._response([], truncated=True).model_copy(update={"count": MAX_ROWS})
        return embedded_bytes(rest.model_dump()) - embedded_bytes([])

    def _run(self, worker: QueryWorker, sql: str, room: int) -> QueryResult:
        started = time.perf_counter()
        try:
            return worker.query(sql, room)
        except (QueryRejected, QueryAborted) as error:
            kind = "RejectedQueries" if isinstance(error, QueryRejected) else "AbortedQueries"
            metrics.add_metric(name=kind, unit="Count", value=1)
            logger.info("query refused", sql=sql[:2000], reason=type(error).__name__)
            raise
        finally:
            metrics.add_metric(name="QueryLatency", unit="Milliseconds", value=(time.perf_counter() - started) * 1000)

    def _shape(self, result: QueryResult) -> SqlSearchResponse:
        """The rows as the worker fitted them to the room, or why there are none."""
        if not result.rows:
            return self._no_rows(result)
        return self._response([dict(zip(result.columns, row, strict=True)) for row in result.rows], result.truncated)

    def _response(self, rows: list[dict[str, Any]], truncated: bool) -> SqlSearchResponse:
        message = _TRUNCATED_MESSAGE if truncated else None
        return SqlSearchResponse(results=rows, count=len(rows), truncated=truncated, message=message)

    def _no_rows(self, result: QueryResult) -> SqlSearchResponse:
        """No rows: say so, and, where the worker found them, what the tested fields hold, how many rows pass each
        condition alone, and the clock's part (bounded there). Advice to rewrite a condition is given only where a
        condition finds nothing, or whether it does is not known."""
        why = result.why_empty
        hints = why.hints
        message = self.spec.no_results_message + "。"
        if why.clock is not None:
            message += _clock_text(why.clock)
        culprits = [h.condition for h in hints if h.matched is False and h.condition not in why.parts]
        culprits += [t.text for t in why.unhinted if t.rows == 0]
        if culprits:
            message += f"データに合う行がない条件: {'、'.join(culprits)}。"
        else:
            message += _combination_text(why)
        message += "".join(_range_text(h.field, h.minimum, h.maximum, h.missing) for h in hints if h.minimum)
        if any(h.values and h.matched is not True and h.condition not in why.parts for h in hints):
            message += (
                "その値がデータにないなら、0 件が答えです。書き方が違うだけなら、hints の values（その列に実際に"
                "ある値）から選んで書き直してください。"
            )
        elif not hints and why.clock is None and not why.where_rows:
            message += (
                f"条件をゆるめるか、{self.spec.profile_operation} で列の値と形式を確かめてから再試行してください。"
            )
        metrics.add_metric(name="EmptyResults", unit="Count", value=1)
        return SqlSearchResponse(results=[], count=0, truncated=result.truncated, message=message, hints=hints or None)


def _combination_text(why: EmptyAnswer) -> str:
    """What made an answer empty when no condition alone did: counted by DuckDB, or nothing said."""
    hints, clock, where_rows = why.hints, why.clock, why.where_rows
    if where_rows:
        return (
            f"WHERE の条件（なければテーブル全体）に合う行は {where_rows} 件あります。0 件になったのは WHERE 以外の"
            "部分（OFFSET、LIMIT、GROUP BY・HAVING、QUALIFY など）のためです。"
        )
    each_passes = (
        why.terms_known
        and all(h.matched for h in hints if h.condition not in why.parts)
        and all(t.rows for t in why.unhinted)
        and (clock is None or bool(clock.rows_now))
    )
    if where_rows == 0 and each_passes and why.parts:
        return (
            "WHERE の AND の各項（OR でつないだまとまりは 1 項）は単独なら合う行がありますが、組み合わせると 0 件です"
            "（OR の中の条件は、ほかの条件が合えば 0 件の原因ではありません）。"
        )
    if where_rows == 0 and each_passes:
        counted = "（hints の matching_rows）" if hints else ""
        return f"どの条件も単独なら合う行がありますが{counted}、組み合わせると 0 件です。"
    return ""


def _range_text(field: str, minimum: str | None, maximum: str | None, missing: int | None) -> str:
    without = f"（ほかに値のない行が {missing} 件）" if missing else ""
    return f"{field} のデータは {minimum}〜{maximum}{without}。"


def _all_before(ranges: list[ClockRange], today: date) -> bool:
    """Whether every compared column's largest value (as DuckDB's profile found it) is a date before `today`.

    >>> _all_before([ClockRange("d", "2025-09-01", "2025-12-28 10:00")], date(2026, 11, 29))
    True
    >>> _all_before([ClockRange("d", "1", "9")], date(2026, 11, 29))
    False
    """
    try:
        return bool(ranges) and all(date.fromisoformat(r.maximum[:10]) < today for r in ranges)
    except ValueError:
        return False


def _clock_text(clock: ClockNote) -> str:
    """An empty answer of a query that reads the clock: what time it is, what the data spans, and whether the data
    holds anything for now (counted by DuckDB)."""
    text = f"今は日本時間 {jst_now_text()} です。"
    text += "".join(_range_text(r.field, r.minimum, r.maximum, r.missing) for r in clock.ranges)
    if clock.rows_now == 0:
        day = clock.ranges[0].minimum[:10] if clock.ranges else "2025-10-05"
        return text + (
            "今日・現在時刻の条件に当てはまる行はデータにありません（クエリの誤りではありません）。"
            f"別の日付なら DATE '{day}'、日時なら TIMESTAMP '{day} 10:00' と書いて探せます。"
        )
    if clock.rows_now is None:
        if _all_before(clock.ranges, jst_now().date()):
            return text + (
                "比べた列の値はどれも今日より前です（データの最大値）: 今日以降を求める条件なら、0 件が答えです。"
                "過去の日付で探すなら DATE '…' と書いてください。"
            )
        return text + "今日・現在時刻に当てはまる行があるかは確かめられませんでした。データの期間と比べてください。"
    return text + f"今日・現在時刻の条件だけなら {clock.rows_now} 行が当てはまります。"
