"""The keyword language, as lawyers' search services write it: space = AND, `OR` (or `|`, `｜`) between
alternatives, a leading `-` (or `NOT`) excludes, `"…"` keeps spaces inside one term; a term that is a date, a month
or a year in any common writing (2019-04-30, 平成31年4月30日, 令和元年) also finds the decisions of those days.

OR binds tighter than the spaces around it, so `不法行為 損害賠償 OR 慰謝料` is 不法行為 AND (損害賠償 OR 慰謝料).
Every term is normalised as the text is (full width, case, kanji numerals, citations marked), so the language compares
normal forms.

>>> parse('不法行為 損害賠償 OR 慰謝料 -控訴 "過失 相殺" -"上告 棄却"')
Expression(clauses=(('不法行為',), ('損害賠償', '慰謝料'), ('過失 相殺',)), excluded=('控訴', '上告 棄却'))
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date

from search_core.cases.citations import mark, readable
from search_core.cases.dates import date_span
from search_core.cases.normalize import normalize

# A quoted phrase (straight or curly quotes, perhaps after a -), or a run of anything else but spaces.
_TOKEN = re.compile(r'(-?)(?:"([^"]+)"|“([^”]+)”)|(\S+)')
_OR = {"OR", "|"}  # after NFKC, ｜ is |
_NOT = "NOT"


@dataclass(frozen=True)
class DateSpan:
    """A keyword that is wholly a date, a month or a year (2019-04-30, 平成31年4月, 令和元年): it holds for the
    decisions of those days, and for any whose text holds it as written."""

    text: str
    first: date
    last: date

    def holds(self, text: str, day: date | None) -> bool:
        return (day is not None and self.first <= day <= self.last) or self.text in text


Term = str | DateSpan


def term_text(term: Term) -> str:
    """The term as the agent wrote it (normalised, citation marks removed)."""
    return readable(term.text if isinstance(term, DateSpan) else term)


@dataclass(frozen=True)
class Expression:
    """Decisions holding, for every clause, at least one of its terms, and none of the excluded terms."""

    clauses: tuple[tuple[Term, ...], ...]
    excluded: tuple[Term, ...] = ()

    @property
    def terms(self) -> tuple[Term, ...]:
        """Every term the expression names, each once, in order (for counts and limits)."""
        return tuple(dict.fromkeys([t for clause in self.clauses for t in clause] + list(self.excluded)))

    @property
    def positive_terms(self) -> tuple[Term, ...]:
        return tuple(dict.fromkeys(t for clause in self.clauses for t in clause))

    def holds_in(self, text: str, day: date | None = None) -> bool:
        """Whether a decision (its normalised text and its date) satisfies the expression.

        >>> parse("a OR b -c").holds_in("xbx"), parse("a OR b -c").holds_in("abc")
        (True, False)
        >>> parse("平成31年4月 損害").holds_in("損害", date(2019, 4, 30))
        True
        """
        return all(any(_holds(t, text, day) for t in clause) for clause in self.clauses) and not any(
            _holds(t, text, day) for t in self.excluded
        )


def _holds(term: Term, text: str, day: date | None) -> bool:
    return term.holds(text, day) if isinstance(term, DateSpan) else term in text


def parse(keywords: str) -> Expression:
    """The expression written in `keywords`; an unmatched quote, a lone `-` or a dangling OR are ordinary text.

    >>> [parse(text).clauses for text in ("-", "OR 判決 OR", '"a b', "a or b")]
    [(('-',),), (('判決',),), (('"a',), ('b',)), (('a',), ('or',), ('b',))]
    """
    clauses: list[list[Term]] = []
    excluded: list[Term] = []
    joining = negating = False
    # Operators are read before the terms are normalised: OR and NOT only in capitals, as the services write them.
    for minus, quoted, curly, bare in _TOKEN.findall(unicodedata.normalize("NFKC", keywords)):
        phrase = quoted or curly
        negating = negating or bool(minus)
        if not phrase and bare in _OR:
            joining = bool(clauses) and not negating
            continue
        if not phrase and bare == _NOT:
            negating = True
            continue
        term = phrase.strip() if phrase else bare
        if not phrase and len(bare) > 1 and bare.startswith("-"):
            term, negating = bare[1:], True
        written = normalize(term)
        if not written.strip():
            continue
        span = date_span(written)
        read: Term = DateSpan(mark(written), *span) if span else mark(written)
        if negating:
            excluded.append(read)
        elif joining:
            clauses[-1].append(read)
        else:
            clauses.append([read])
        joining = negating = False
    return Expression(tuple(tuple(dict.fromkeys(clause)) for clause in clauses), tuple(dict.fromkeys(excluded)))
