"""What the worker knows about its data beyond the table: the profile, built once and kept, and from it the hints
of an answer without rows.

Everything here runs inside the sandbox under a deadline: the profile and the parse under DuckDB's interrupt, a
computed value as a query through the same guard, plan check and bounds as the agent's own, and the Python work on
bounded inputs (at most KEPT_VALUES short values per field, MAX_HINTS hints).
"""

from __future__ import annotations

import time
import traceback
from dataclasses import replace
from functools import lru_cache

import duckdb

from search_core.advice.filters import Filters, clock_macros, filters
from search_core.advice.hints import (
    MAX_HINTS,
    ClockNote,
    ClockRange,
    EmptyAnswer,
    TermCount,
    rows_without,
    value_hints,
)
from search_core.advice.profile import VALUE_CHARS, FieldProfile, TableProfile, build_profile
from search_core.engine.limits import TEXTS_KEPT, QueryLimits
from search_core.engine.quoting import quote_identifier
from search_core.engine.table import TableSpec
from search_core.engine.watchdog import WATCHDOG
from search_core.errors import QueryAborted, SearchError
from search_core.safety.policy import QueryPolicy
from search_core.worker.execute import run_query

# Conditions counted in one scan: as many as hints can name, and more than a query usually holds.
_COUNTED = 2 * MAX_HINTS


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
        columns = {c.name for c in table.columns}
        tables = frozenset(name.lower() for name in table.table_names)
        clock = clock_macros({m.name: m.body for m in table.macros})

        # What a text tests depends on DuckDB's parse of it and nothing else: read once per text, as an agent that
        # found nothing often sends the same text again.
        @lru_cache(maxsize=TEXTS_KEPT)
        def tested(sql: str) -> Filters:
            return filters(con, sql, columns, tables, clock)

        self._filters = tested

    def profile(self, deadline: float) -> TableProfile:
        """The data's profile, built on first use by `deadline` (time.monotonic(); QueryAborted if that is not
        enough) and kept."""
        if self._profile is None:
            if deadline <= time.monotonic():
                raise QueryAborted(self.limits.profile_timeout_message)
            try:
                with WATCHDOG.until(self.con, deadline):
                    self._profile = build_profile(self.con, self.table)
            except duckdb.InterruptException:
                raise QueryAborted(self.limits.profile_timeout_message) from None
        return self._profile

    def empty_answer(self, sql: str, deadline: float) -> EmptyAnswer:
        """Why `sql` found nothing, by `deadline` (time.monotonic()): what the fields it tests hold and how many rows
        pass each condition alone, and, if it reads the clock, the rows for now and the range of the columns it
        compared. Whatever cannot be learnt in time, or fails, is left out: the empty answer stands."""
        try:
            return self._empty_answer(sql, deadline)
        except (QueryAborted, duckdb.Error):
            return EmptyAnswer()
        except Exception:  # a fault in the hints must never turn an empty answer into an error
            traceback.print_exc()
            return EmptyAnswer()

    def _empty_answer(self, sql: str, deadline: float) -> EmptyAnswer:
        profile = self.profile(deadline)
        with WATCHDOG.until(self.con, deadline):
            tested = self._filters(sql)
        computed = [self._computed_values(c.column, deadline) for c in tested.conditions if c.computed][:MAX_HINTS]
        profile = replace(profile, fields=profile.fields + tuple(f for f in computed if f is not None))
        json_columns = {c.name for c in self.table.columns if c.is_json}
        asked = list(dict.fromkeys(c.sql for c in tested.conditions if c.sql))[:_COUNTED]
        # The WHERE's terms but the clock's (which the clock's note covers), each counted alone.
        terms = [t for t in tested.where_terms if not t.reads_clock]
        others = [t.sql for t in terms if t.sql not in asked][:_COUNTED]
        counted = asked + others + ([tested.where_sql] if tested.where_sql else [])
        passing = self._each_passing(counted, deadline)
        hints = value_hints(tested.conditions, profile, json_columns, lambda c: passing.get(c.sql or ""))
        where_rows = passing.get(tested.where_sql) if tested.where_sql else None
        shown = {h.condition for h in hints}
        hinted = {c.sql for c in tested.conditions if c.text in shown}
        # A term without a hint (a JSON key the profile does not know, say) is counted here, never taken as passing.
        unhinted = [TermCount(t.text, passing.get(t.sql)) for t in terms if t.sql not in hinted]
        known = bool(tested.where_terms) and all(t.sql in passing for t in terms)
        parts = [c.text for c in tested.conditions if c.part and c.text]
        return EmptyAnswer(hints, self._clock(tested, profile, deadline), where_rows, unhinted, known, parts)

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

    def _each_passing(self, predicates: list[str], deadline: float) -> dict[str, int | None]:
        """How many rows pass each of `predicates` alone: counted in one scan, or one by one if that fails (one of
        them may fail on its own, in a conversion say, and leave the others known)."""
        distinct = list(dict.fromkeys(predicates))
        counts = self._count([f"count(*) FILTER (WHERE {p})" for p in distinct], deadline)
        if counts is None:
            counts = [self._rows_passing([p], deadline) for p in distinct]
        return dict(zip(distinct, counts, strict=True))

    def _rows_passing(self, predicates: list[str], deadline: float) -> int | None:
        """How many rows pass `predicates` together; None if that cannot be known in time."""
        [count] = self._count([f"count(*) FILTER (WHERE {' AND '.join(predicates)})"], deadline) or [None]
        return count

    def _count(self, counts: list[str], deadline: float) -> list[int | None] | None:
        """The values of `counts` over the table, asked by DuckDB through the same guard, plan check and bounds as
        any query (the predicates are the agent's own text); None if they cannot be known in time."""
        if not counts or deadline <= time.monotonic():
            return None
        sql = f"SELECT {', '.join(counts)} FROM {quote_identifier(self.table.table)}"
        try:
            result = run_query(self.con, sql, self.policy, self.limits, self.table, deadline)
        except SearchError:
            return None
        row = result.rows[0] if result.rows else []
        return list(row) if row and all(isinstance(value, int) for value in row) else None

    def _computed_values(self, expression: str, deadline: float) -> FieldProfile | None:
        """The most frequent values of an expression the query tested (`dayname(start_date)`), asked as any query
        is: the expression is the agent's text, so it passes the same guard, plan check and bounds."""
        if deadline <= time.monotonic():
            return None
        table = quote_identifier(self.table.table)
        counted = (
            f"SELECT CAST(({expression}) AS VARCHAR) AS v, count(*) AS n FROM {table} GROUP BY v HAVING v IS NOT NULL"
        )
        sql = f"SELECT v, n, count(*) OVER () AS kinds, sum(n) OVER () AS present FROM ({counted}) ORDER BY n DESC, v"
        try:
            result = run_query(self.con, sql, self.policy, self.limits, self.table, deadline)
        except SearchError:
            return None
        if not result.rows:
            return None
        values = [(str(v)[:VALUE_CHARS], int(n)) for v, n, _, _ in result.rows]
        _, _, kinds, present = result.rows[0]
        return FieldProfile(expression, None, int(present), int(kinds), values, complete=not result.truncated)
