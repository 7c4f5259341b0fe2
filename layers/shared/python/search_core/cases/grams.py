"""The index side of search: which characters and character pairs a keyword needs, as decision bitmaps.

A decision can only contain a keyword if it contains every pair of adjacent characters in it (or, for a one-
character keyword, that character). The index stores, per character and pair, the set of decisions that hold
it; intersecting those sets gives the candidates, which the search then checks exactly.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

_INDEX_WHITESPACE = " \t\n\f\r"


def needed_grams(keywords: Iterable[str]) -> set[str]:
    """The characters (one-character keywords) and character pairs the keywords need.

    >>> sorted(needed_grams(["損害賠償", "法"])), sorted(needed_grams(["原告 被告"]))
    (['害賠', '損害', '法', '賠償'], ['原告', '被告'])
    """
    grams: set[str] = set()
    for keyword in keywords:
        grams.update({keyword} if len(keyword) == 1 else {keyword[i : i + 2] for i in range(len(keyword) - 1)})
    # The index holds no pair with white space (prepare.py, DuckDB's \s): a phrase's spaces are checked on the text.
    return {gram for gram in grams if not any(c in _INDEX_WHITESPACE for c in gram)}


def bitmap_from_bits(bits: str) -> int:
    """A DuckDB BIT value ('0101', decision 0 first) as a Python int with bit d set for decision d.

    >>> bin(bitmap_from_bits("0110"))
    '0b110'
    """
    return int(bits[::-1], 2)


def bitmap_of(decisions: Iterable[int]) -> int:
    bitmap = 0
    for number in decisions:
        bitmap |= 1 << number
    return bitmap


def decisions_in(bitmap: int) -> Iterator[int]:
    """The decision numbers in a bitmap, lowest (newest) first.

    >>> list(decisions_in(0b1011))
    [0, 1, 3]
    """
    for match in re.finditer("1", format(bitmap, "b")[::-1]):
        yield match.start()
