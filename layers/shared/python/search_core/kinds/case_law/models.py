"""What a case search asks for and what it finds, independent of Bedrock."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from search_core.kinds.case_law.query import Expression
from search_core.kinds.case_law.terms import Term


@dataclass(frozen=True)
class CaseQuery:
    """A search: the keyword expression (no clauses: every decision passing the filters); court and dates narrow
    it."""

    expression: Expression
    limit: int
    court: str | None = None  # canonical form
    date_from: date | None = None
    date_to: date | None = None
    by_relevance: bool = False  # else newest first
    court_as_written: str | None = None  # normalised: a part of an abbreviated name (知財) is found as it is

    @property
    def filtered(self) -> bool:
        return bool(self.court or self.date_from or self.date_to)


@dataclass(frozen=True)
class CaseMatches:
    """The matching decisions asked for, and how many match in all: exactly, or at least `total` when counting every
    candidate would have outrun the counting budget (cases/index.py)."""

    decisions: list[Decision]
    total: int
    total_exact: bool
    # For an empty answer: how many decisions hold each term alone (None: not counted in time).
    term_counts: dict[Term, int | None] = field(default_factory=dict)
    filtered_total: int | None = None
    # For an empty answer with excluded terms: how many match once those are dropped (None: none, or not counted).
    without_excluded: int | None = None


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

    @property
    def full_text(self) -> str:
        """主文 and 事実及び理由, as a reader pages through them."""
        return f"主文\n{self.main_text or ''}\n\n事実及び理由\n{self.facts_and_reasons or ''}"
