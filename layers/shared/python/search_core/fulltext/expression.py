"""The keyword language, as lawyers' search services write it: space = AND, `OR` (or `|`, `｜`) between
alternatives, a leading `-` (or `−`, `NOT`) excludes, `"…"` keeps spaces inside one term; a term that is a date, a month
or a year in any common writing (2019-04-30, 平成31年4月30日, 令和元年) also finds the decisions of those days.

OR binds tighter than the spaces around it, so `不法行為 損害賠償 OR 慰謝料` is 不法行為 AND (損害賠償 OR 慰謝料).
Every term is normalised as the text is (full width, case, kanji numerals), so the language compares normal forms; a
term citing an article (第709条) matches as a citation (fulltext/citations.py).

>>> expression = parse('不法行為 損害賠償 OR 慰謝料 -控訴 "過失 相殺" -"上告 棄却"')
>>> [[term.text for term in clause] for clause in expression.clauses], [term.text for term in expression.excluded]
([['不法行為'], ['損害賠償', '慰謝料'], ['過失 相殺']], ['控訴', '上告 棄却'])
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from datetime import date

from search_core.fulltext.amounts import Amount, AmountRange
from search_core.fulltext.citations import Citation
from search_core.fulltext.normalize import normalize
from search_core.fulltext.terms import DateSpan, InField, Phrase, Term

_OR = {"OR", "|"}  # after NFKC, ｜ is |
# After NFKC, the full-width minus is "-"; the minus sign and the hyphen are written for it too.
_MINUS = "-\u2212\u2010"
_NOT = "NOT"
# A quoted phrase (straight or curly quotes, perhaps after a minus), or a run of anything else but spaces.
_TOKEN = re.compile(rf'([{_MINUS}]?)(?:"([^"]+)"|“([^”]+)”)|(\S+)')
# A part of a document by its name (主文, 事件名): its normalised text.
Parts = Callable[[str], str]
# The kinds a keyword may be besides a phrase, in the order they are tried: each reads a whole keyword, or gives None.
KINDS: tuple[type[DateSpan | Citation | Amount | AmountRange], ...] = (DateSpan, Citation, Amount, AmountRange)


@dataclass(frozen=True)
class Expression:
    """Decisions holding, for every clause, at least one of its terms, and none of the excluded terms."""

    clauses: tuple[tuple[Term, ...], ...]
    excluded: tuple[Term, ...] = ()
    # Each term as the agent wrote it (千代, not 1000代; ＡＢＣ, not abc): what messages name it by.
    written: tuple[tuple[Term, str], ...] = field(default=(), compare=False)

    def name(self, term: Term) -> str:
        """The term as the agent wrote it, else its normal form.

        >>> expression = parse("千代 ＡＢＣ")
        >>> [expression.name(term) for term in expression.terms], [term.text for term in expression.terms]
        (['千代', 'ＡＢＣ'], ['1000代', 'abc'])
        """
        return dict(self.written).get(term, term.text)

    @property
    def terms(self) -> tuple[Term, ...]:
        """Every term the expression names, each once, in order (for counts and limits)."""
        return tuple(dict.fromkeys([t for clause in self.clauses for t in clause] + list(self.excluded)))

    @property
    def positive_terms(self) -> tuple[Term, ...]:
        return tuple(dict.fromkeys(t for clause in self.clauses for t in clause))

    def may_hold_in(self, utf8: bytes) -> bool:
        """A quick test on a normalised text's UTF-8, before decoding it: False only if `holds_in` must be False
        (every clause needs one of its terms).

        >>> parse("損害 OR 賠償 過失").may_hold_in("過失と賠償".encode()), parse("損害 過失").may_hold_in(b"x")
        (True, False)
        """
        return all(any(term.may_hold_in(utf8) for term in clause) for clause in self.clauses)

    @property
    def decided_by_utf8(self) -> bool:
        """Whether the UTF-8 of a decision's normalised text decides the expression (holds_in_utf8), undecoded: every
        term is found exactly by its UTF-8 (a phrase; not a date, a citation, a sum or a confined term)."""
        return all(term.decided_by_utf8 for term in self.terms)

    def holds_in_utf8(self, utf8: bytes) -> bool:
        """`holds_in` for an expression decided_by_utf8, on the UTF-8 of the normalised text.

        >>> expression = parse("損害 OR 賠償 -控訴")
        >>> expression.holds_in_utf8("賠償".encode()), expression.holds_in_utf8("損害控訴".encode())
        (True, False)
        """
        return self.may_hold_in(utf8) and not any(term.may_hold_in(utf8) for term in self.excluded)

    @property
    def has_fields(self) -> bool:
        """Whether a term is confined to a part of the decision (主文:…, 事件名:…), so checking needs the parts."""
        return any(term.field is not None for term in self.terms)

    def holds_in(self, text: str, day: date | None = None, parts: Parts | None = None) -> bool:
        """Whether a decision (its normalised text, its date and, for confined terms, its parts) satisfies the
        expression; without `parts`, a confined term holds nowhere.

        >>> parse("a OR b -c").holds_in("xbx"), parse("a OR b -c").holds_in("abc")
        (True, False)
        >>> parse("平成31年4月 損害").holds_in("損害", date(2019, 4, 30))
        True
        >>> confined = parse("主文:棄却", fields=("主文",))
        >>> confined.holds_in("理由 棄却", parts=lambda part: "認容する"), confined.terms[0].text
        (False, '主文:棄却')
        """

        def holds(term: Term) -> bool:
            where = term.field
            return term.holds(text if where is None else parts(where) if parts else "", day)

        return all(any(holds(t) for t in clause) for clause in self.clauses) and not any(
            holds(t) for t in self.excluded
        )


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


def _term(written: str, fields: Collection[str] = ()) -> Term:
    """The keyword as the first kind that reads it (a date, a month or a year; a citation), else as a phrase; with the
    name of one of the `fields` and a colon before it (主文:棄却), confined to that part.

    >>> keywords = ("令和元年", "民法709条", "損害賠償", "主文:棄却", "主文:")
    >>> [type(_term(keyword, ("主文",))).__name__ for keyword in keywords]
    ['DateSpan', 'Citation', 'Phrase', 'InField', 'Phrase']
    """
    part, colon, rest = written.partition(":")
    if colon and part in fields and rest:
        return InField(part, _unconfined_term(rest))
    return _unconfined_term(written)


def _unconfined_term(written: str) -> Term:
    return next((term for kind in KINDS if (term := kind.read(written)) is not None), Phrase(written))


def _as_written(keywords: str) -> dict[str, str]:
    """Each keyword as the agent wrote it (full width, ①, ㈱), by its NFKC form, a leading minus aside: how a term
    is named back (ＰＲＯＶＩＤＥＲ, not PROVIDER).

    >>> _as_written("ＰＲＯＶＩＤＥＲ　－①事件")
    {'PROVIDER': 'ＰＲＯＶＩＤＥＲ', '1事件': '①事件'}
    """
    written: dict[str, str] = {}
    for keyword in keywords.split():
        bare = keyword.lstrip(f"{_MINUS}－")
        written.setdefault(unicodedata.normalize("NFKC", bare), bare)
    return written


def parse(keywords: str, fields: Collection[str] = ()) -> Expression:
    """The expression written in `keywords`, a term may be confined to one of `fields` (主文:棄却); an unmatched
    quote, a lone `-` or a dangling OR are ordinary text.

    >>> [[term.text for term in parse(text).positive_terms] for text in ("-", "OR 判決 OR", '"a b', "a or b")]
    [['-'], ['判決'], ['"a', 'b'], ['a', 'or', 'b']]

    OR joins two terms to be found: after an excluded term it joins nothing (there, OR is AND).

    >>> expression = parse("損害賠償 -控訴 OR 上告")
    >>> [[term.text for term in clause] for clause in expression.clauses], [term.text for term in expression.excluded]
    ([['損害賠償'], ['上告']], ['控訴'])
    """
    clauses: list[list[Term]] = []
    excluded: list[Term] = []
    names: dict[Term, str] = {}
    as_written = _as_written(keywords)
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
        read = _term(written, fields)
        names.setdefault(read, as_written.get(term, term))
        if negating:
            excluded.append(read)
        elif joining:
            clauses[-1].append(read)
        else:
            clauses.append([read])
        after_found, joining, negating = not negating, False, False
    return Expression(
        tuple(tuple(dict.fromkeys(clause)) for clause in clauses),
        tuple(dict.fromkeys(excluded)),
        tuple(names.items()),
    )
