"""Search over a prepared case-law database: bitmap prefilter, exact check, newest first."""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from itertools import islice

import duckdb

from search_core.cases.grams import bitmap_from_bits, bitmap_of, decisions_in, needed_grams
from search_core.cases.models import CaseQuery, Decision
from search_core.cases.prepare import unpack

# Candidates are checked newest first in growing batches, so a common keyword stops after a few batches.
_FIRST_BATCH = 32
_MAX_BATCH = 1024
_DECISION_COLUMNS = """SELECT c.doc_num, c.doc_id, c.court, c.date, c.date_text, c.case_number, c.case_name,
    b.main_text, b.facts_and_reasons"""


class CaseIndex:
    """One open, locked connection on a prepared database."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con
        self.decisions: int = con.execute("SELECT count(*) FROM cases").fetchall()[0][0]

    def search(self, query: CaseQuery, deadline: float = math.inf) -> list[Decision]:
        """The newest `query.limit` decisions holding every keyword (exactly) and passing the filters.

        Raises TimeoutError once `deadline` (time.monotonic) has passed while candidates are checked; the caller
        interrupts the connection at the same deadline, so no single statement outlives it either.
        """
        candidates = self._candidates(query)
        if not candidates:
            return []
        matched: list[int] = []
        for batch in _batches(decisions_in(candidates)):
            matched.extend(self._verified(batch, query.keywords, deadline))
            if len(matched) >= query.limit:
                break
        return self._decisions(matched[: query.limit])

    def decision(self, doc_id: str) -> Decision | None:
        rows = self._rows(
            f"{_DECISION_COLUMNS} FROM cases c JOIN bodies b USING (doc_num) WHERE c.doc_id = ?", [doc_id]
        )
        return rows[0] if rows else None

    def close(self) -> None:
        self.con.close()

    def _candidates(self, query: CaseQuery) -> int:
        grams = needed_grams(query.keywords)
        found = self.con.execute(
            "SELECT CAST(dense AS VARCHAR), sparse FROM grams WHERE gram IN (SELECT unnest(?))", [sorted(grams)]
        ).fetchall()
        if len(found) < len(grams):
            return 0  # some character pair occurs nowhere
        candidates = (1 << self.decisions) - 1
        for dense, sparse in sorted(found, key=lambda row: row[0] is not None):  # rare grams first
            candidates &= bitmap_from_bits(dense) if dense is not None else bitmap_of(sparse)
            if not candidates:
                break
        if query.court or query.date_from or query.date_to:
            candidates &= self._passing_filters(query)
        return candidates

    def _passing_filters(self, query: CaseQuery) -> int:
        rows = self.con.execute(
            """SELECT doc_num FROM cases WHERE ($court IS NULL OR contains(court_canonical, $court))
            AND ($from IS NULL OR date >= $from) AND ($to IS NULL OR date <= $to)""",
            {"court": query.court, "from": query.date_from, "to": query.date_to},
        ).fetchall()
        return bitmap_of(row[0] for row in rows)

    def _verified(self, batch: list[int], keywords: tuple[str, ...], deadline: float) -> list[int]:
        """The decisions of `batch` whose normalised text holds every keyword, in order."""
        # A join on a small list lets DuckDB push the doc_num filter into the scan and read only those rows.
        rows = self.con.execute(
            """SELECT s.doc_num, s.text FROM (SELECT unnest(?) AS doc_num) wanted
            JOIN search_text s USING (doc_num) ORDER BY s.doc_num""",
            [batch],
        ).fetchall()
        verified = []
        for number, packed in rows:
            if time.monotonic() > deadline:  # each text is long: checked one by one, not a batch at a time
                raise TimeoutError("case search ran past its deadline")
            text = unpack(packed) or ""
            if all(keyword in text for keyword in keywords):
                verified.append(number)
        return verified

    def _decisions(self, doc_nums: list[int]) -> list[Decision]:
        if not doc_nums:
            return []
        return self._rows(
            f"""{_DECISION_COLUMNS} FROM (SELECT unnest(?) AS doc_num) wanted JOIN cases c USING (doc_num)
            JOIN bodies b USING (doc_num) ORDER BY c.doc_num""",
            [doc_nums],
        )

    def _rows(self, sql: str, parameters: list[object]) -> list[Decision]:
        decisions = []
        for doc_num, doc_id, court, day, day_text, case_number, case_name, main, facts in self.con.execute(
            sql, parameters
        ).fetchall():
            decisions.append(
                Decision(doc_num, doc_id, court, day, day_text, case_number, case_name, unpack(main), unpack(facts))
            )
        return decisions


def _batches(doc_nums: Iterator[int]) -> Iterator[list[int]]:
    size = _FIRST_BATCH
    while batch := list(islice(doc_nums, size)):
        yield batch
        size = min(size * 4, _MAX_BATCH)
