"""What a case search asks for and what it finds, independent of Bedrock."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property
from typing import NamedTuple

from search_core.fulltext.citations import CitedArticle, articles_cited
from search_core.fulltext.expression import Expression
from search_core.fulltext.normalize import normalize
from search_core.fulltext.terms import Term
from search_core.kinds.case_law.text.headings import REASONING, Section, reasoning_in, reasoning_span
from search_core.kinds.case_law.text.outcome import Outcome, read_outcome


@dataclass(frozen=True)
class CaseQuery:
    """A search: the keyword expression (no clauses: every decision passing the filters); court and dates narrow
    it."""

    expression: Expression
    limit: int
    court: str | None = None  # canonical form: a level (高等裁判所) or a court's name or beginning (courts.py)
    date_from: date | None = None
    date_to: date | None = None
    by_relevance: bool = False  # else newest first
    court_as_written: str | None = None  # normalised: the beginning of a name as stored (知財高 of 知財高裁)
    undated: bool = False  # only the decisions without a date (what a date filter leaves out)
    outcome: str | None = None  # only the decisions whose 主文 states this outcome (text/outcome.py)

    @property
    def filtered(self) -> bool:
        return bool(self.court or self.date_from or self.date_to or self.undated or self.outcome)

    @property
    def dated(self) -> bool:
        return bool(self.date_from or self.date_to)


@dataclass(frozen=True)
class CaseMatches:
    """The matching decisions asked for, and how many match in all: exactly, or at least `total` when counting every
    candidate would have outrun the counting budget (kinds/case_law/store/index.py)."""

    decisions: list[Decision]
    total: int
    total_exact: bool
    # For an empty answer: how many decisions hold each term alone (None: not counted in time).
    term_counts: dict[Term, int | None] = field(default_factory=dict)
    filtered_total: int | None = None
    # For an empty answer with excluded terms: how many match once those are dropped (None: none, or not counted).
    without_excluded: int | None = None
    # With a date filter: how many decisions without a date match all else, which the filter left out (None: no date
    # filter, or not counted in time).
    undated: int | None = None
    # When the court and dates leave nothing: the court's decisions dates aside, and their first and last dates.
    court_span: tuple[int, date | None, date | None] | None = None
    # When the filters hold a few decisions and the terms none of them: those decisions.
    within_filters: tuple[Listed, ...] = ()
    # For an empty answer: how many decisions of the collection are searched only in part (their tails hold terms
    # no count includes).
    searched_in_part: int = 0
    # For an empty answer: how many decisions the collection holds.
    in_all: int | None = None


class Listed(NamedTuple):
    """A decision named in an answer without being a hit."""

    doc_id: str
    date: date | None
    case_name: str | None
    searched_in_part: bool


_MAIN_HEADING, _REASONS_HEADING = "主文\n", "\n\n事実及び理由\n"


@dataclass(frozen=True)
class Decision:
    doc_num: int
    doc_id: str
    court: str | None
    date: date | None
    date_text: str | None
    case_number: str | None
    case_name: str | None
    main_text: str | None
    facts_and_reasons: str | None
    # How many characters of the 主文 followed by 事実及び理由 are searched (store/build.searched_length); None: all.
    searched_chars: int | None = None
    # The searched text as stored, normalised (store/build.search_text); None: normalised when asked for.
    normalized: str | None = None

    @cached_property
    def outcome(self) -> Outcome:
        """The outcome its 主文 states (text/outcome.py), read once for every field that shows it."""
        return read_outcome(self.main_text)

    @cached_property
    def cited_articles(self) -> list[CitedArticle]:
        """The articles the decision cites after a law's name (fulltext/citations.py), the most cited first."""
        return articles_cited(normalize(self.searched_text) if self.normalized is None else self.normalized)

    @cached_property
    def full_text(self) -> str:
        """主文 and 事実及び理由, as a reader pages through them."""
        return f"{_MAIN_HEADING}{self.main_text or ''}{_REASONS_HEADING}{self.facts_and_reasons or ''}"

    @property
    def body(self) -> str:
        """主文 and 事実及び理由 without their headings: what a snippet is cut from (a keyword such as 理由 is
        looked for in what the court wrote, not in our headings)."""
        return f"{self.main_text or ''}\n{self.facts_and_reasons or ''}"

    @property
    def regions(self) -> dict[str, tuple[int, int]]:
        """Where the parts the court wrote lie in `full_text`, by name (事件名 is not in it): a term is found only
        there, never in the headings this text adds (主文, 事実及び理由)."""
        main, reasons = len(self.main_text or ""), len(self.facts_and_reasons or "")
        if self.searched_chars is not None:
            main, reasons = min(main, self.searched_chars), min(reasons, max(self.searched_chars - main, 0))
        main_start = len(_MAIN_HEADING)
        reasons_start = main_start + len(self.main_text or "") + len(_REASONS_HEADING)
        return {"主文": (main_start, main_start + main), "事実及び理由": (reasons_start, reasons_start + reasons)}

    def regions_for(
        self, terms: tuple[Term, ...], deadline: float = math.inf, parts: list[Section] | None = None
    ) -> dict[str, tuple[int, int]]:
        """`regions`, and where the court's own reasoning lies when a term is confined to it (判断:): read from the
        headings only then (or from `parts`, the full text's sections when read already), as a decision of many
        heading lines takes a while to read."""
        regions = self.regions
        if any(term.field == REASONING for term in terms):
            low, high = regions["事実及び理由"]
            read = reasoning_span(self.full_text, deadline) if parts is None else reasoning_in(self.full_text, parts)
            found = read or (high, high)
            regions = regions | {REASONING: (min(max(found[0], low), high), max(min(found[1], high), low))}
        return regions

    @property
    def searched_text(self) -> str:
        """`full_text` up to where searching stops: what findInCase reads for places, so that a word or a number the
        cut goes through reads as the search read it."""
        until = self.searched_until
        return self.full_text if until is None else self.full_text[:until]

    @property
    def searched_body(self) -> str:
        """`body` up to where searching stops: what a snippet is looked for in."""
        if self.searched_chars is None:
            return self.body
        main = len(self.main_text or "")
        return self.body[: self.searched_chars if self.searched_chars <= main else self.searched_chars + 1]

    @property
    def searched_until(self) -> int | None:
        """Where searching this decision stops in `full_text` (None: it is searched to its end): past it, its text is
        read but no term is looked for."""
        if self.searched_chars is None:
            return None
        main, reasons = self.regions.values()
        return reasons[1] if reasons[1] > reasons[0] else main[1]

    def full_offset(self, body_offset: int) -> int:
        """Where a place in `body` is in `full_text`.

        >>> decision = Decision(1, "d", None, None, None, None, None, "主文です", "理由です")
        >>> [decision.full_text[decision.full_offset(decision.body.index(t))] for t in ("主", "理")]
        ['主', '理']
        """
        main = len(self.main_text or "")
        if body_offset <= main:
            return len(_MAIN_HEADING) + body_offset
        return body_offset - main - 1 + len(_MAIN_HEADING) + main + len(_REASONS_HEADING)
