"""The keyword language, as lawyers' search services write it: space = AND, `OR` (or `|`, `｜`) between
alternatives, a leading `-` (or `−`, `NOT`) excludes, `"…"` keeps spaces inside one term; a term that is a date, a month
or a year in any common writing (2019-04-30, 平成31年4月30日, 令和元年) also finds the decisions of those days.

OR binds tighter than the spaces around it, so `不法行為 損害賠償 OR 慰謝料` is 不法行為 AND (損害賠償 OR 慰謝料).
Every term is normalised as the text is (full width, case, kanji numerals), so the language compares normal forms; a
term citing an article (第709条) matches as a citation (cases/citations.py).

>>> parse('不法行為 損害賠償 OR 慰謝料 -控訴 "過失 相殺" -"上告 棄却"')
Expression(clauses=(('不法行為',), ('損害賠償', '慰謝料'), ('過失 相殺',)), excluded=('控訴', '上告 棄却'))
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date
from functools import cached_property

from search_core.kinds.case_law.citations import Citation, citation
from search_core.kinds.case_law.dates import date_span
from search_core.kinds.case_law.normalize import normalize

_OR = {"OR", "|"}  # after NFKC, ｜ is |
# After NFKC, the full-width minus is "-"; the minus sign and the hyphen are written for it too.
_MINUS = "-\u2212\u2010"
_NOT = "NOT"
# A quoted phrase (straight or curly quotes, perhaps after a minus), or a run of anything else but spaces.
_TOKEN = re.compile(rf'([{_MINUS}]?)(?:"([^"]+)"|“([^”]+)”)|(\S+)')


@dataclass(frozen=True)
class DateSpan:
    """A keyword that is wholly a date, a month or a year (2019-04-30, 平成31年4月, 令和元年): it holds for the
    decisions of those days, and for any whose text holds it as written."""

    text: str
    first: date
    last: date

    def holds(self, text: str, day: date | None) -> bool:
        return (day is not None and self.first <= day <= self.last) or self.text in text


Term = str | DateSpan | Citation


def term_text(term: Term) -> str:
    """The term as the agent wrote it (normalised)."""
    return term if isinstance(term, str) else term.text


def pattern(term: Term) -> re.Pattern[str]:
    """How the term is found in a normalised text to show it: a citation by its pattern, anything else as written.

    >>> bool(pattern("a.b").search("a.b")), bool(pattern("a.b").search("axb"))
    (True, False)
    """
    return term.regex if isinstance(term, Citation) else re.compile(re.escape(term_text(term)))


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

    @cached_property
    def _needed_bytes(self) -> tuple[tuple[tuple[bytes, ...], ...], ...]:
        """For every clause no date can satisfy: each term's literal parts in UTF-8."""
        return tuple(
            tuple(tuple(part.encode() for part in literal_parts(term)) for term in clause)
            for clause in self.clauses
            if not any(isinstance(term, DateSpan) for term in clause)
        )

    def may_hold_in(self, utf8: bytes) -> bool:
        """A quick test on a normalised text's UTF-8, before decoding it: False only if `holds_in` must be False
        (every clause needs one of its terms whole, and UTF-8 finds a character sequence only where it begins).

        >>> parse("損害 OR 賠償 過失").may_hold_in("過失と賠償".encode()), parse("損害 過失").may_hold_in(b"x")
        (True, False)
        """
        return all(any(all(p in utf8 for p in parts) for parts in clause) for clause in self._needed_bytes)

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


def literal_parts(term: Term) -> tuple[str, ...]:
    """What every match of a term contains as written: the term; a citation's literal parts; a date's text (a date
    also matches the decisions of its days, whatever they hold)."""
    if isinstance(term, Citation):
        return term.pieces
    return (term.text,) if isinstance(term, DateSpan) else (term,)


def _tokens(text: str) -> list[tuple[str, str, str]]:
    """(minus, phrase, bare word) in order; a bare word joined by | (損害賠償｜慰謝料) is its words with | between.

    >>> _tokens('a|b -"c d"')
    [('', '', 'a'), ('', '', '|'), ('', '', 'b'), ('-', 'c d', '')]
    """
    tokens = []
    for minus, quoted, curly, bare in _TOKEN.findall(text):
        if bare and "|" in bare and bare != "|":
            words = [w for w in re.split(r"(\|)", bare) if w]
            tokens += [("", "", word) for word in words]
        else:
            tokens.append((minus, quoted or curly, bare))
    return tokens


def _term(written: str) -> Term:
    """A date, month or year; a citation; or plain text to find as it is."""
    span = date_span(written)
    if span:
        return DateSpan(written, *span)
    return citation(written) or written


def _holds(term: Term, text: str, day: date | None) -> bool:
    if isinstance(term, DateSpan):
        return term.holds(text, day)
    return term.holds(text) if isinstance(term, Citation) else term in text


def parse(keywords: str) -> Expression:
    """The expression written in `keywords`; an unmatched quote, a lone `-` or a dangling OR are ordinary text.

    >>> [parse(text).clauses for text in ("-", "OR 判決 OR", '"a b', "a or b")]
    [(('-',),), (('判決',),), (('"a',), ('b',)), (('a',), ('or',), ('b',))]

    OR joins two terms to be found: after an excluded term it joins nothing (there, OR is AND).

    >>> parse("損害賠償 -控訴 OR 上告")
    Expression(clauses=(('損害賠償',), ('上告',)), excluded=('控訴',))
    """
    clauses: list[list[Term]] = []
    excluded: list[Term] = []
    joining = negating = after_found = False  # after_found: the last term read is one to be found
    # Operators are read before the terms are normalised: OR and NOT only in capitals, as the services write them.
    for minus, phrase, bare in _tokens(unicodedata.normalize("NFKC", keywords)):
        negating = negating or bool(minus)
        if not phrase and bare in _OR:
            joining = after_found and not negating
            continue
        if not phrase and bare == _NOT:
            negating = True
            continue
        term = " ".join(phrase.split()) if phrase else bare  # a phrase's line breaks are spaces, as in one line
        if not phrase and len(bare) > 1 and bare[0] in _MINUS:
            term, negating = bare[1:], True
        written = normalize(term)
        if not written.strip():
            continue
        read = _term(written)
        if negating:
            excluded.append(read)
        elif joining:
            clauses[-1].append(read)
        else:
            clauses.append([read])
        after_found, joining, negating = not negating, False, False
    return Expression(tuple(tuple(dict.fromkeys(clause)) for clause in clauses), tuple(dict.fromkeys(excluded)))
