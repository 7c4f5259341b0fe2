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

from search_core.cases.citations import readable
from search_core.cases.normalize import normalize

# Numerals are normalised as runs (七百九 → 709); every other character on its own.
_SEGMENT = re.compile("[〇零一二三四五六七八九十百千万億兆]+|.", re.DOTALL)
# Occurrences counted in one decision: enough to say "many", bounded whatever the term.
MAX_COUNTED = 1_000


@dataclass(frozen=True)
class Occurrence:
    start: int
    end: int
    term: str


def aligned(text: str) -> tuple[str, list[int]]:
    """The normalised text and, for each of its characters, the offset in `text` it comes from."""
    starts: list[int] = []
    pieces: list[str] = []
    for segment in _SEGMENT.finditer(text):
        piece = normalize(segment.group())
        starts.extend([segment.start()] * len(piece))
        pieces.append(piece)
    return "".join(pieces), starts


def occurrences(text: str, terms: tuple[str, ...]) -> list[Occurrence]:
    """Every occurrence of the terms (normalised, citations marked, as the search reads them) in `text`, in order of
    position, at most MAX_COUNTED; a citation only where it is the whole citation, as in a search.

    >>> from search_core.cases.citations import mark
    >>> [(o.start, o.end, o.term) for o in occurrences("第七百九条と第1709条", (mark("709条"),))]
    [(1, 5, '709条')]
    """
    plain, starts = aligned(text)
    found: list[Occurrence] = []
    for term in terms:
        shown = readable(term)
        position = plain.find(shown) if shown else -1
        while position >= 0 and len(found) < MAX_COUNTED:
            end = position + len(shown)
            if term == shown or _whole_citation(plain, position, end):
                found.append(Occurrence(starts[position], starts[end] if end < len(starts) else len(text), shown))
            position = plain.find(shown, position + 1)
    return sorted(found, key=lambda o: (o.start, o.term))


def _whole_citation(plain: str, start: int, end: int) -> bool:
    """Whether a citation found at plain[start:end] is whole: no digit before its number, no 「の2」 after its unit
    (the boundaries `mark` draws in the search).

    >>> _whole_citation("第1709条", 2, 6), _whole_citation("709条の2", 0, 4), _whole_citation("第709条1項", 1, 5)
    (False, False, True)
    """
    digit_before = plain[start].isdigit() and start > 0 and plain[start - 1].isdigit()
    sub_after = plain[end - 1] in "条項号" and plain[end : end + 1] == "の" and plain[end + 1 : end + 2].isdigit()
    return not digit_before and not sub_after
