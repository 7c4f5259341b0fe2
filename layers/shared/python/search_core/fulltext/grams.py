"""The index side of search: which characters and character pairs a keyword needs, and the decisions holding them.

A decision can only contain a keyword if it contains every pair of adjacent characters in it (or, for a one-
character keyword, that character). The index stores, per character and pair, the set of decisions that hold it
as a roaring bitmap (pyroaring): a sorted set of decision numbers kept as arrays, bitmaps or runs per block of
65,536, whichever is smallest, so a pair held by two decisions costs ~20 bytes and one held by all a few bytes.
Intersecting those sets gives the candidates, which the search then checks exactly.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable

from pyroaring import BitMap

# The index holds no gram with white space: keywords are split on it, and a phrase's spaces are checked on the text.
_INDEX_WHITESPACE = " \t\n\f\r"
_RUNS_WITHOUT_WHITESPACE = re.compile(f"[^{_INDEX_WHITESPACE}]+")


def needed_grams(keywords: Iterable[str]) -> set[str]:
    """The characters (one-character keywords) and character pairs the keywords need.

    >>> sorted(needed_grams(["損害賠償", "法"])), sorted(needed_grams(["原告 被告"]))
    (['害賠', '損害', '法', '賠償'], ['原告', '被告'])
    """
    grams: set[str] = set()
    for keyword in keywords:
        grams.update({keyword} if len(keyword) == 1 else {keyword[i : i + 2] for i in range(len(keyword) - 1)})
    return {gram for gram in grams if not any(c in _INDEX_WHITESPACE for c in gram)}


def grams_of(text: str) -> set[str]:
    """Every character and character pair of a normalised text that the index holds.

    >>> sorted(grams_of("損害 賠償"))
    ['償', '害', '損', '損害', '賠', '賠償']
    """
    grams: set[str] = set()
    for run in _RUNS_WITHOUT_WHITESPACE.findall(text):
        grams.update(run)
        grams.update(map(operator.add, run, run[1:]))
    return grams


def stored(decisions: BitMap) -> bytes:
    """A set of decisions as the index stores it (roaring's portable format, runs where they are smaller).

    >>> len(stored(BitMap(range(100_000)))), loaded(stored(BitMap([3, 70_000]))) == BitMap([3, 70_000])
    (25, True)
    """
    decisions.run_optimize()
    return decisions.serialize()


def loaded(data: bytes) -> BitMap:
    return BitMap.deserialize(data)
