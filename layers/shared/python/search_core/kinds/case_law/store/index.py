"""Search over a prepared case-law database: bitmap prefilter, exact check, newest first."""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import date
from functools import cache
from itertools import islice

import duckdb
from pyroaring import BitMap

from search_core.fulltext.expression import Expression, Parts
from search_core.fulltext.grams import needed_grams
from search_core.fulltext.index import TermIndex, gram_bitmaps
from search_core.fulltext.packed import searched_utf8, unpacked
from search_core.fulltext.terms import Term
from search_core.kinds.case_law.language import FIELDS, Candidate
from search_core.kinds.case_law.limits import MAX_NAMED_WITHIN_FILTERS
from search_core.kinds.case_law.models import CaseMatches, CaseQuery, Decision, Listed
from search_core.kinds.case_law.text.courts import names_level

# Candidates are checked newest first in growing batches, so a common keyword stops after a few batches.
_FIRST_BATCH = 32
_MAX_BATCH = 1024
# What counting the matches beyond `limit` may add to a search (then the total is a lower bound, said so): a common
# term over a large corpus would otherwise cost every search its whole deadline. Measured at 100,000 decisions
# (scripts/bench_cases.py): 20 ms of counting put the p50 of the typical searches at 30 ms, 10 ms at 22 ms, while
# 損害賠償 is then counted to at least 101 of its 6,571 decisions (160 with 20 ms).
COUNTING_SECONDS = 0.01
# Ranking by relevance needs every match scored, so it may go on longer: at 100,000 decisions a candidate takes ~0.1 ms
# to check, so this ranks ~3,000 matches exactly; beyond, the ranking is among those checked (total_exact false).
RELEVANCE_SECONDS = 0.3
# Terms counted one by one to explain an empty answer (the language allows 20; the first few say enough).
MAX_COUNTED_TERMS = 8
_DECISION_COLUMNS = """SELECT c.doc_num, c.doc_id, c.court, c.date, c.date_text, c.case_number, c.case_name,
    c.searched_chars, t.packed"""


class CaseIndex:
    """One open, locked connection on a prepared database."""

    def __init__(self, con: duckdb.DuckDBPyConnection) -> None:
        self.con = con
        counts = con.execute(
            """SELECT count(*), count(*) FILTER (WHERE date IS NULL), count(*) FILTER (WHERE searched_chars IS NOT NULL)
            FROM cases"""
        ).fetchall()[0]
        self.decisions: int = counts[0]
        self._undated_decisions: int = counts[1]
        self._searched_in_part: int = counts[2]
        self._everyone = BitMap(range(self.decisions))

    def search(self, query: CaseQuery, deadline: float = math.inf) -> CaseMatches:
        """The newest `query.limit` decisions satisfying the expression (exactly) and the filters, and their count.

        Candidates are checked newest first until the limit is met; counting then goes on over the rest for at most
        COUNTING_SECONDS (RELEVANCE_SECONDS when ranking; at most half the time left), after which the count is a
        lower bound. Raises TimeoutError once `deadline` (time.monotonic) has passed while the first `limit` are
        sought; the caller interrupts the connection at the same deadline, so no single statement outlives it either.
        """
        matched, total, exact = self._matching(self._candidates(query), query, deadline)
        decisions = self._decisions(matched)
        undated = self._undated(query, deadline)
        if total:
            return CaseMatches(decisions, total, exact, undated=undated)
        passing = self._passing_filters(query) if query.filtered else None
        filtered = None if passing is None else len(passing)
        # Within filters that leave nothing, every term's count is 0 whatever it is: none is counted or blamed.
        counts = {} if filtered == 0 else self._term_counts(query, deadline)
        span = self._court_span(query) if filtered == 0 and query.dated else None
        excluded = self._without_excluded(query, deadline)
        named = self._named(passing) if passing and len(passing) <= MAX_NAMED_WITHIN_FILTERS else ()
        return CaseMatches(
            decisions,
            0,
            exact,
            counts,
            filtered,
            excluded,
            undated,
            span,
            named,
            self._searched_in_part,
            self.decisions,
        )

    def _named(self, passing: BitMap) -> tuple[Listed, ...]:
        """The decisions passing the filters (few), newest first."""
        rows = self.con.execute(
            """SELECT doc_id, date, case_name, searched_chars IS NOT NULL FROM cases WHERE doc_num = ANY(?)
            ORDER BY doc_num""",
            [list(passing)],
        ).fetchall()
        return tuple(Listed(*row) for row in rows)

    def _court_span(self, query: CaseQuery) -> tuple[int, date | None, date | None]:
        """The decisions of the court asked for (of the collection, if none is), dates aside: how many, and their first
        and last dates."""
        court_only = self._passing_filters(replace(query, date_from=None, date_to=None))
        row = self.con.execute(
            "SELECT count(*), min(date), max(date) FROM cases WHERE doc_num = ANY(?)", [list(court_only)]
        ).fetchone()
        return (0, None, None) if row is None else (int(row[0]), row[1], row[2])

    def _undated(self, query: CaseQuery, deadline: float) -> int | None:
        """With a date filter: the decisions without a date that match all else (the filter leaves them out)."""
        if not query.dated:
            return None
        if not self._undated_decisions:  # most collections: no search pays for counting what is not there
            return 0
        return self._count(replace(query, date_from=None, date_to=None, undated=True), _share(deadline, 4))

    def _matching(self, candidates: BitMap, query: CaseQuery, deadline: float) -> tuple[list[int], int, bool]:
        """The first `limit` matching decision numbers, how many match in all, and whether that count is exact."""
        if _exact_by_index(query.expression) and not query.by_relevance:  # the bitmap is the answer: no checking
            return list(islice(candidates, query.limit)), len(candidates), True
        matched: list[int] = []
        scored: list[tuple[float, int]] = []  # by relevance: every match checked, best kept at the end
        total = 0
        counting_until: float | None = None  # set once the limit is met: from then on, only counting
        for batch in _batches(iter(candidates)):
            found, complete = self._verified(batch, query.expression, counting_until or deadline, query.by_relevance)
            if not complete and counting_until is None:
                raise TimeoutError("case search ran past its deadline")
            total += len(found)
            matched.extend(number for number, _ in found[: query.limit - len(matched)])
            scored.extend((score, number) for number, score in found)
            if not complete:  # out of counting time: what was checked of the batch still counts
                return _best(scored, query.limit) if query.by_relevance else matched, total, False
            if len(matched) >= query.limit and counting_until is None:
                now = time.monotonic()
                budget = RELEVANCE_SECONDS if query.by_relevance else COUNTING_SECONDS
                counting_until = now + min((deadline - now) / 2, budget)
        return _best(scored, query.limit) if query.by_relevance else matched, total, True

    def _term_counts(self, query: CaseQuery, deadline: float) -> dict[Term, int | None]:
        """For an empty answer: how many decisions (within the filters) hold each term on its own, the terms sharing
        half the time left."""
        terms = query.expression.positive_terms[:MAX_COUNTED_TERMS]
        counts: dict[Term, int | None] = {}
        for left, term in zip(range(len(terms), 0, -1), terms, strict=True):
            alone = replace(query, expression=Expression(((term,),)))
            if alone.expression == query.expression:  # the search itself, which found none, every candidate read
                counts[term] = 0
                continue
            counts[term] = self._count(alone, _share(deadline, 2 * left))
        return counts

    def _without_excluded(self, query: CaseQuery, deadline: float) -> int | None:
        """For an empty answer: how many would match without its excluded terms (an exclusion matches inside words:
        -控訴 also drops every 控訴人)."""
        if not query.expression.excluded:
            return None
        if not query.expression.clauses:  # the filters alone: every decision passing them
            return len(self._passing_filters(query))
        return self._count(replace(query, expression=Expression(query.expression.clauses)), _share(deadline, 2))

    def _count(self, query: CaseQuery, until: float) -> int | None:
        """How many decisions match `query` (its limit aside), or None if they could not all be counted by `until`."""
        candidates = self._candidates(query)
        everything = replace(query, limit=len(candidates), by_relevance=False)  # no counting budget: all or None
        try:
            _, total, _ = self._matching(candidates, everything, until)
        except TimeoutError:
            return None
        return total

    def decision(self, doc_id: str) -> Decision | None:
        rows = self._rows(f"{_DECISION_COLUMNS} FROM cases c JOIN texts t USING (doc_num) WHERE c.doc_id = ?", [doc_id])
        return rows[0] if rows else None

    def close(self) -> None:
        self.con.close()

    def _candidates(self, query: CaseQuery) -> BitMap:
        """Decisions that may satisfy the expression: for every clause, those holding every character pair of one
        of its terms (an excluded term can only be checked on the text); within the filters."""
        pieces = [piece for term in query.expression.positive_terms for piece in term.pieces]
        index = _SearchIndex(self.con, self._everyone, gram_bitmaps(self.con, needed_grams(pieces)))
        candidates = self._everyone
        for clause in query.expression.clauses:
            candidates = candidates & _holding_any(clause, index)
            if not candidates:
                return candidates
        if query.filtered:
            candidates = candidates & self._passing_filters(query)
        return candidates

    def _passing_filters(self, query: CaseQuery) -> BitMap:
        # The court rule of courts.py: a level anywhere in the name; a name where a court's name starts (at the start,
        # after 裁判所 or 支部), never inside a longer word; a beginning as stored (知財高 of 知財高裁) too. An outcome
        # holds its kinds, and a claim's outcome the higher courts' that order it anew: 有罪 holds 有罪（執行猶予）,
        # 一部認容 holds 原判決取消・変更（一部認容）.
        rows = self.con.execute(
            """SELECT doc_num FROM cases
            WHERE ($court IS NULL OR CASE WHEN $level THEN contains(court_canonical, $court)
                ELSE starts_with(court_canonical, $court) OR contains(court_canonical, '裁判所' || $court)
                    OR contains(court_canonical, '支部' || $court) OR starts_with(court, $written) END)
            AND ($from IS NULL OR date >= $from) AND ($to IS NULL OR date <= $to)
            AND (NOT $undated OR date IS NULL)
            AND ($outcome IS NULL OR outcome = $outcome OR starts_with(outcome, $outcome || '（')
                OR ends_with(outcome, '（' || $outcome || '）'))""",
            {
                "court": query.court,
                "level": names_level(query.court or ""),
                "written": query.court_as_written,
                "from": query.date_from,
                "to": query.date_to,
                "undated": query.undated,
                "outcome": query.outcome,
            },
        ).fetchall()
        return BitMap(row[0] for row in rows)

    def _verified(
        self, batch: list[int], expression: Expression, deadline: float, scoring: bool = False
    ) -> tuple[list[tuple[int, float]], bool]:
        """The decisions of `batch` whose normalised text satisfies the expression, in order, each with its
        relevance when `scoring` (else 0); and whether the whole batch was checked before `deadline` (if not, those
        found in the part checked)."""
        # `= ANY(list)` reads only those rows: measured 6-18 ms for 1,024 decisions at 100,000, where a join on the
        # unnested list took 190 ms.
        rows = sorted(self.con.execute("SELECT doc_num, packed FROM texts WHERE doc_num = ANY(?)", [batch]).fetchall())
        cases = self.con.execute(
            "SELECT doc_num, date, case_name, main_at, main_length FROM cases WHERE doc_num = ANY(?)", [batch]
        )
        days_and_names = {number: (day, name, at, length) for number, day, name, at, length in cases.fetchall()}
        verified: list[tuple[int, float]] = []
        # Phrases alone are decided on the UTF-8: decoding took a quarter of checking a candidate, its fetch included,
        # at 100,000 decisions (5.9 of 23 ms for 160 candidates of 損害賠償).
        undecoded = expression.decided_by_utf8 and not scoring
        for number, packed in rows:
            if time.monotonic() > deadline:  # each text is long: checked one by one, not a batch at a time
                return verified, False
            utf8 = searched_utf8(packed)
            if undecoded:
                if expression.holds_in_utf8(utf8):
                    verified.append((number, 0.0))
                continue
            if not expression.may_hold_in(utf8):  # most false candidates end here, undecoded
                continue
            text = utf8.decode()
            day, name, at, length = days_and_names.get(number, (None, None, 0, 0))
            parts = _parts(Candidate(text, at, length, name)) if expression.has_fields else None
            if expression.holds_in(text, day, parts):
                verified.append((number, relevance(text, expression) if scoring else 0.0))
        return verified, True

    def _decisions(self, doc_nums: list[int]) -> list[Decision]:
        """The decisions, in the order given (newest first, or by relevance)."""
        if not doc_nums:
            return []
        found = self._rows(
            f"""{_DECISION_COLUMNS} FROM (SELECT unnest(?) AS doc_num) wanted JOIN cases c USING (doc_num)
            JOIN texts t USING (doc_num)""",
            [doc_nums],
        )
        place = {number: index for index, number in enumerate(doc_nums)}
        return sorted(found, key=lambda decision: place[decision.doc_num])

    def _rows(self, sql: str, parameters: list[object]) -> list[Decision]:
        decisions = []
        for number, doc_id, court, day, day_text, case_number, name, searched_chars, packed in self.con.execute(
            sql, parameters
        ).fetchall():
            texts = unpacked(packed)
            decisions.append(
                Decision(
                    number,
                    doc_id,
                    court,
                    day,
                    day_text,
                    case_number,
                    name,
                    texts.main_text,
                    texts.facts_and_reasons,
                    searched_chars,
                    texts.searched,
                )
            )
        return decisions


def _parts(candidate: Candidate) -> Parts:
    """A candidate's parts that terms may be confined to (language.FIELDS), each read when first asked for."""

    @cache
    def part(name: str) -> str:
        return FIELDS[name].read(candidate)

    return part


def _exact_by_index(expression: Expression) -> bool:
    """Whether the candidates are exactly the matches: no terms (filters alone), or only terms the index finds
    exactly (a phrase of one or two characters is its own one gram; a sum, or a citation such as 709条1項, has
    its keys), and nothing to exclude.

    >>> from search_core.fulltext.expression import parse
    >>> _exact_by_index(parse("損害 OR 賠償")), _exact_by_index(parse("損害賠償")), _exact_by_index(parse("1条"))
    (True, False, True)
    """
    return all(t.exact_by_index for clause in expression.clauses for t in clause) and not expression.excluded


def relevance(text: str, expression: Expression) -> float:
    """How much a decision is about the terms: their occurrences per 1,000 characters of its searched text.

    >>> from search_core.fulltext.expression import parse
    >>> relevance("損害" * 10 + "x" * 980, parse("損害"))
    10.0
    """
    hits = sum(term.count_in(text) for term in expression.positive_terms)
    return hits * 1000 / max(len(text), 1)


def _best(scored: list[tuple[float, int]], limit: int) -> list[int]:
    """The `limit` best scored decisions, the newer first among equals."""
    return [number for _, number in sorted(scored, key=lambda item: (-item[0], item[1]))[:limit]]


@dataclass(frozen=True)
class _SearchIndex(TermIndex):
    """The index as a search's terms ask it, with the decisions' dates (a date term's candidates)."""

    def decided_between(self, first: date, last: date) -> BitMap:
        rows = self.con.execute("SELECT doc_num FROM cases WHERE date BETWEEN ? AND ?", [first, last]).fetchall()
        return BitMap(row[0] for row in rows)


def _holding_any(clause: tuple[Term, ...], index: _SearchIndex) -> BitMap:
    """Decisions that may hold one of the clause's terms."""
    either = BitMap()
    for term in clause:
        either |= term.candidates(index)
    return either


def _share(deadline: float, parts: int) -> float:
    """When one of `parts` equal shares of the time left before `deadline` ends."""
    now = time.monotonic()
    return now + max(deadline - now, 0.0) / parts


def _batches(doc_nums: Iterator[int]) -> Iterator[list[int]]:
    size = _FIRST_BATCH
    while batch := list(islice(doc_nums, size)):
        yield batch
        size = min(size * 4, _MAX_BATCH)
