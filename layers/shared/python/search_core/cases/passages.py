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

from search_core.cases.normalize import normalize
from search_core.cases.query import Term, pattern, term_text

# Numerals are normalised as runs (七百九 → 709); every other character on its own.
_SEGMENT = re.compile("[〇零一二三四五六七八九十百千万億兆]+|.", re.DOTALL)
# Occurrences counted per term in one decision: enough to say "many", bounded whatever the term.
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


def occurrences(text: str, terms: tuple[Term, ...]) -> list[Occurrence]:
    """Every occurrence of the terms in `text`, as the search reads them (a citation only where whole, from its 第),
    in order of position; at most MAX_COUNTED per term, so a common term does not hide the others.

    >>> from search_core.cases.query import parse
    >>> [(o.start, o.end, o.term) for o in occurrences("第七百九条と第1709条", parse("709条").positive_terms)]
    [(0, 5, '709条')]
    """
    plain, starts = aligned(text)
    found: list[Occurrence] = []
    for term in terms:
        for match in islice(pattern(term).finditer(plain), MAX_COUNTED):
            if match.end() > match.start():
                end = starts[match.end()] if match.end() < len(starts) else len(text)
                found.append(Occurrence(starts[match.start()], end, term_text(term)))
    return sorted(found, key=lambda o: (o.start, o.term))
