"""The search expression as case law reads it: the full-text language (search_core/fulltext/expression.py) with the
parts of a decision a term may be confined to by writing their name and a colon (主文:300万円, 事件名:損害賠償).

Each part is a class, as each kind of term is: how a candidate's part is read when it is checked, and whether
findInCase's text (主文 and 事実及び理由) holds it. A new part is one class and one entry in FIELDS.

>>> [term.text for term in parse("主文:棄却 事件名:損害賠償 判断:過失 理由:損害").terms]
['主文:棄却', '事件名:損害賠償', '判断:過失', '理由:損害']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Protocol

from search_core.fulltext import expression
from search_core.fulltext.expression import Expression
from search_core.fulltext.normalize import normalize
from search_core.kinds.case_law.limits import MAX_SEARCHED_NAME_CHARS
from search_core.kinds.case_law.text.headings import REASONING, reasoning_span


@dataclass(frozen=True)
class Candidate:
    """What the check of one candidate decision has: its searched text (normalised), where its 主文 lies in it, and
    its case name as stored."""

    searched: str
    main_at: int
    main_length: int
    case_name: str | None


class Field(Protocol):
    name: ClassVar[str]
    # Whether findInCase's text holds the part; if not, the answer field that shows it.
    in_text: ClassVar[bool]
    shown_as: ClassVar[str | None]

    def read(self, candidate: Candidate) -> str:
        """The part's normalised text in a candidate."""
        ...


class MainText(Field):
    """The 主文, as normalised when the decision was prepared: sliced from the searched text, never normalised again
    while a search waits (a 主文 may be millions of characters)."""

    name = "主文"
    in_text = True
    shown_as = None

    def read(self, candidate: Candidate) -> str:
        return candidate.searched[candidate.main_at : candidate.main_at + candidate.main_length]


class CaseName(Field):
    """The 事件名, normalised when a term asks for it, as far as it is searched (MAX_SEARCHED_NAME_CHARS)."""

    name = "事件名"
    in_text = False
    shown_as = "case_name"

    def read(self, candidate: Candidate) -> str:
        return normalize((candidate.case_name or "")[:MAX_SEARCHED_NAME_CHARS])


class Reasoning(Field):
    """The court's own reasoning (当裁判所の判断, 争点に対する判断, a criminal judgment's 【事実認定の補足説明】 to
    【量刑の理由】: text/headings.py reasoning_span), read from the
    searched text's headings: empty in a decision without such a heading, so a term confined to it holds nowhere
    there."""

    name = REASONING
    in_text = True
    shown_as = None

    def read(self, candidate: Candidate) -> str:
        span = reasoning_span(candidate.searched)
        return "" if span is None else candidate.searched[span[0] : span[1]]


FIELDS: dict[str, Field] = {field.name: field for field in (MainText(), CaseName(), Reasoning())}


def parse(keywords: str) -> Expression:
    return expression.parse(keywords, FIELDS)
