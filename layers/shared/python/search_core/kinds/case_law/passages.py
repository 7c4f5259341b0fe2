"""Where terms occur in a decision, as offsets into its full text: the jump from a search hit to the passage.

The text is normalised piece by piece (a kanji numeral as one run, every other character alone), keeping for each
normalised character the offset it came from, so a hit found in normal form (709条) is shown as written (七百九条)
at the offset /cases/text reads from.

>>> plain, starts = aligned("民法第七百九条")
>>> plain, plain.find("709条"), starts[plain.find("709条")]
('民法第709条', 3, 3)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import islice

from search_core.kinds.case_law.normalize import normalize
from search_core.kinds.case_law.terms import Term

# Numerals are normalised as runs (七百九 → 709); every other character on its own.
_SEGMENT = re.compile("[〇零一二三四五六七八九十百千万億兆]+|.", re.DOTALL)


@dataclass(frozen=True)
class Occurrence:
    start: int
    end: int
    term: str


@dataclass(frozen=True)
class Occurrences:
    """The first occurrences of the terms in order of position, and how many there are in all: every occurrence of
    every term, so two terms found at one place count twice (as they are listed twice)."""

    first: list[Occurrence]
    total: int


def aligned(text: str) -> tuple[str, list[int]]:
    """The normalised text and, for each of its characters, the offset in `text` it comes from."""
    starts: list[int] = []
    pieces: list[str] = []
    for segment in _SEGMENT.finditer(text):
        piece = normalize(segment.group())
        starts.extend([segment.start()] * len(piece))
        pieces.append(piece)
    return "".join(pieces), starts


def occurrences(text: str, terms: tuple[Term, ...], first: int) -> Occurrences:
    """The first `first` occurrences of the terms in `text`, as the search reads them (a citation only where whole,
    from its 第), in order of position; and the exact count of all of them. Counting without keeping is cheap:
    20 one-character terms over 300,000 characters (103,422 matches) take 9 ms, where normalising takes 250.

    >>> from search_core.kinds.case_law.query import parse
    >>> found = occurrences("第七百九条と第1709条、709条", parse("709条").positive_terms, 1)
    >>> [(o.start, o.end, o.term) for o in found.first], found.total
    ([(0, 5, '709条')], 2)
    """
    plain, starts = aligned(text)
    kept: list[Occurrence] = []
    total = 0
    for term in terms:
        spans = term.spans(plain)
        shown = [_occurrence(span, starts, len(text), term.text) for span in islice(spans, first)]
        kept += shown
        total += len(shown) + sum(1 for _ in spans)
    return Occurrences(sorted(kept, key=lambda o: (o.start, o.term))[:first], total)


def _occurrence(span: tuple[int, int], starts: list[int], length: int, term: str) -> Occurrence:
    """A span of the normalised text, as offsets into the text as written."""
    start, end = span
    return Occurrence(starts[start], starts[end] if end < len(starts) else length, term)
