"""What a case search asks for and what it finds, independent of Bedrock."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True)
class CaseQuery:
    """A search: every keyword must occur (already normalised); court and dates narrow it."""

    keywords: tuple[str, ...]
    limit: int
    court: str | None = None  # canonical form
    date_from: date | None = None
    date_to: date | None = None


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
