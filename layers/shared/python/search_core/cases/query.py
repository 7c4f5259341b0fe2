"""The keyword language, as lawyers' search services write it: space = AND, `OR` (or `|`, `｜`) between
alternatives, a leading `-` (or `NOT`) excludes, `"…"` keeps spaces inside one term.

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

from search_core.cases.citations import mark
from search_core.cases.normalize import normalize

# A quoted phrase (straight or curly quotes, perhaps after a -), or a run of anything else but spaces.
_TOKEN = re.compile(r'(-?)(?:"([^"]+)"|“([^”]+)”)|(\S+)')
_OR = {"OR", "|"}  # after NFKC, ｜ is |
_NOT = "NOT"


@dataclass(frozen=True)
class Expression:
    """Decisions holding, for every clause, at least one of its terms, and none of the excluded terms."""

    clauses: tuple[tuple[str, ...], ...]
    excluded: tuple[str, ...] = ()

    @property
    def terms(self) -> tuple[str, ...]:
        """Every term the expression names, each once, in order (for counts and limits)."""
        return tuple(dict.fromkeys([t for clause in self.clauses for t in clause] + list(self.excluded)))

    @property
    def positive_terms(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(t for clause in self.clauses for t in clause))

    def holds_in(self, text: str) -> bool:
        """Whether a normalised text satisfies the expression.

        >>> parse("a OR b -c").holds_in("xbx"), parse("a OR b -c").holds_in("abc")
        (True, False)
        """
        return all(any(t in text for t in clause) for clause in self.clauses) and not any(
            t in text for t in self.excluded
        )


def parse(keywords: str) -> Expression:
    """The expression written in `keywords`; an unmatched quote, a lone `-` or a dangling OR are ordinary text.

    >>> [parse(text).clauses for text in ("-", "OR 判決 OR", '"a b', "a or b")]
    [(('-',),), (('判決',),), (('"a',), ('b',)), (('a',), ('or',), ('b',))]
    """
    clauses: list[list[str]] = []
    excluded: list[str] = []
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
        term = mark(normalize(term))
        if not term:
            continue
        if negating:
            excluded.append(term)
        elif joining:
            clauses[-1].append(term)
        else:
            clauses.append([term])
        joining = negating = False
    return Expression(tuple(tuple(dict.fromkeys(clause)) for clause in clauses), tuple(dict.fromkeys(excluded)))
