"""Search over a prepared case-law database: bitmap prefilter, exact check, newest first."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

import duckdb

from search_core.cases.grams import bitmap_from_bits, bitmap_of, decisions_in, needed_grams
from search_core.cases.models import CaseQuery, Decision

# Candidates are checked newest first in growing batches, so a common keyword stops after a few batches.
_FIRST_BATCH = 32
_MAX_BATCH = 1024
_DECISION_COLUMNS = "doc_num, doc_id, court, date, date_text, case_number, case_name, main_text, facts_and_reasons"


class CaseIndex:
    """One open, locked connection on a prepared database."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con
        self.decisions: int = con.execute("SELECT count(*) FROM cases").fetchall()[0][0]

    def search(self, query: CaseQuery) -> list[Decision]:
        """The newest `query.limit` decisions holding every keyword (exactly) and passing the filters."""
        candidates = self._candidates(query)
        if not candidates:
            return []
        matched: list[int] = []
        for batch in _batches(decisions_in(candidates)):
            matched.extend(self._verified(batch, query.keywords))
            if len(matched) >= query.limit:
                break
        return self._decisions(matched[: query.limit])

    def decision(self, doc_id: str) -> Decision | None:
        rows = self._rows(f"SELECT {_DECISION_COLUMNS} FROM cases WHERE doc_id = ?", [doc_id])
        return rows[0] if rows else None

    def close(self) -> None:
        self.con.close()

    def _candidates(self, query: CaseQuery) -> int:
        grams = needed_grams(query.keywords)
        found = self.con.execute(
            "SELECT gram, CAST(docs AS VARCHAR) FROM grams WHERE gram IN (SELECT unnest(?))", [sorted(grams)]
        ).fetchall()
        if len(found) < len(grams):
            return 0  # some character pair occurs nowhere
        candidates = (1 << self.decisions) - 1
        for _, bits in sorted(found, key=lambda row: row[1].count("1")):
            candidates &= bitmap_from_bits(bits)
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

    def _verified(self, batch: list[int], keywords: tuple[str, ...]) -> list[int]:
        rows = self.con.execute(
            """SELECT doc_num FROM search_text WHERE doc_num IN (SELECT unnest($batch))
            AND len(list_filter($keywords, lambda k: NOT contains(text, k))) = 0 ORDER BY doc_num""",
            {"batch": batch, "keywords": list(keywords)},
        ).fetchall()
        return [row[0] for row in rows]

    def _decisions(self, doc_nums: list[int]) -> list[Decision]:
        if not doc_nums:
            return []
        return self._rows(
            f"SELECT {_DECISION_COLUMNS} FROM cases WHERE doc_num IN (SELECT unnest(?)) ORDER BY doc_num", [doc_nums]
        )

    def _rows(self, sql: str, parameters: list[object]) -> list[Decision]:
        return [Decision(*row) for row in self.con.execute(sql, parameters).fetchall()]


def _batches(doc_nums: Iterator[int]) -> Iterator[list[int]]:
    size = _FIRST_BATCH
    while batch := list(islice(doc_nums, size)):
        yield batch
        size = min(size * 4, _MAX_BATCH)
