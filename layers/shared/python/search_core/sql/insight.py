"""What the worker knows about its data beyond the table: the profile, built once and kept, and from it the hints
of an answer without rows.

Everything here runs inside the sandbox under a deadline: the profile and the parse under DuckDB's interrupt, a
computed value as a query through the same guard, plan check and bounds as the agent's own, and the Python work on
bounded inputs (at most KEPT_VALUES short values per field, MAX_HINTS hints).
"""

from __future__ import annotations

import time
from dataclasses import replace

import duckdb

from search_core.errors import QueryAborted, SearchError
from search_core.sql.execute import run_query
from search_core.sql.filters import Filters, clock_macros, filters
from search_core.sql.hints import MAX_HINTS, ClockNote, ClockRange, EmptyAnswer, rows_without, value_hints
from search_core.sql.limits import QueryLimits
from search_core.sql.policy import QueryPolicy
from search_core.sql.profile import VALUE_CHARS, FieldProfile, TableProfile, build_profile
from search_core.sql.quoting import quote_identifier
from search_core.sql.table import TableSpec
from search_core.sql.watchdog import WATCHDOG

_PROFILE_TIMEOUT = "データの概要を制限時間内に作れませんでした。少し待ってから再試行してください。"


class DataInsight:
    """The profile and hints of one table on one sandboxed connection (the data of a worker never changes)."""

    def __init__(
        self, con: duckdb.DuckDBPyConnection, table: TableSpec, policy: QueryPolicy, limits: QueryLimits
    ) -> None:
        self.con = con
        self.table = table
        self.policy = policy
        self.limits = limits
        self._profile: TableProfile | None = None
        self._clock_macros = clock_macros({m.name: m.body for m in table.macros})

    def profile(self, seconds: float) -> TableProfile:
        """The data's profile, built on first use within `seconds` (QueryAborted if that is not enough) and kept."""
        if self._profile is None:
            if seconds <= 0:
                raise QueryAborted(_PROFILE_TIMEOUT)
            try:
                with WATCHDOG.deadline(self.con, seconds):
                    self._profile = build_profile(self.con, self.table)
            except duckdb.InterruptException:
                raise QueryAborted(_PROFILE_TIMEOUT) from None
        return self._profile

    def empty_answer(self, sql: str, seconds: float) -> EmptyAnswer:
        """Why `sql` found nothing, within `seconds`: what the fields it tests hold and how many rows pass each
        condition alone, and, if it reads the clock, the rows for now and the range of the columns it compared.
        Whatever cannot be learnt in time is left out; the empty answer stands."""
        deadline = time.monotonic() + seconds
        try:
            profile = self.profile(seconds)
            with WATCHDOG.deadline(self.con, deadline - time.monotonic()):
                tested = filters(self.con, sql, {c.name for c in self.table.columns}, self._clock_macros)
        except (QueryAborted, duckdb.Error):
            return EmptyAnswer()
        computed = [self._computed_values(c.column, deadline) for c in tested.conditions if c.computed][:MAX_HINTS]
        profile = replace(profile, fields=profile.fields + tuple(f for f in computed if f is not None))
        json_columns = {c.name for c in self.table.columns if c.is_json}
        hints = value_hints(
            tested.conditions, profile, json_columns, lambda c: self._rows_passing([c.sql] if c.sql else [], deadline)
        )
        return EmptyAnswer(hints, self._clock(tested, profile, deadline))

    def _clock(self, tested: Filters, profile: TableProfile, deadline: float) -> ClockNote | None:
        if not tested.reads_clock:
            return None
        ranges = [
            ClockRange(f.name, f.minimum, f.maximum, rows_without(f, profile))
            for name in tested.clock_columns
            if (f := profile.field(name, None)) is not None and f.minimum is not None and f.maximum is not None
        ]
        now = None if tested.clock_predicates is None else self._rows_passing(list(tested.clock_predicates), deadline)
        return ClockNote(ranges, now)

    def _rows_passing(self, predicates: list[str], deadline: float) -> int | None:
        """How many rows pass `predicates` together, counted by DuckDB through the same guard, plan check and
        bounds as any query (they are the agent's own text); None if that cannot be known in time."""
        remaining = deadline - time.monotonic()
        if not predicates or remaining <= 0:
            return None
        where = " AND ".join(predicates)
        sql = f"SELECT count(*) AS n FROM {quote_identifier(self.table.table)} WHERE {where}"
        try:
            result = run_query(self.con, sql, self.policy, self.limits.interrupting_after(remaining), self.table)
        except SearchError:
            return None
        return int(result.rows[0][0]) if result.rows and isinstance(result.rows[0][0], int) else None

    def _computed_values(self, expression: str, deadline: float) -> FieldProfile | None:
        """The most frequent values of an expression the query tested (`dayname(start_date)`), asked as any query
        is: the expression is the agent's text, so it passes the same guard, plan check and bounds."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        table = quote_identifier(self.table.table)
        sql = f"SELECT CAST(({expression}) AS VARCHAR) AS v, count(*) AS n FROM {table} GROUP BY v ORDER BY n DESC, v"
        try:
            result = run_query(self.con, sql, self.policy, self.limits.interrupting_after(remaining), self.table)
        except SearchError:
            return None
        values = [(str(v)[:VALUE_CHARS], int(n)) for v, n in result.rows if v is not None]
        present = sum(n for _, n in values)
        return FieldProfile(expression, None, present, len(values), values, complete=not result.truncated)
