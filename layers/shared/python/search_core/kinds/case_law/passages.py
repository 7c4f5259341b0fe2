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
import unicodedata
from bisect import bisect_left
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import dropwhile, islice

from search_core.kinds.case_law.normalize import normalize
from search_core.kinds.case_law.terms import Term

# What normalize() reads as one: a numeral run, as its _NUMERAL reads one (七百九 → 709; 3百万 → 300万, digits full
# width or not), and a character with the marks NFKC composes into it (ｶﾞ → ガ, カ+U+3099 → ガ, jamo into a
# syllable). Every other character is normalised on its own.
_ARABIC_RUN = "[0-9０-９][0-9０-９,，]*(?=[十百千])"
_SEGMENT = re.compile(
    f"(?P<numeral>(?<![0-9０-９])(?:[〇零一二三四五六七八九十百千]|(?<![0-9０-９][,，.．]){_ARABIC_RUN})"
    f"(?:[〇零一二三四五六七八九十百千万億兆]|{_ARABIC_RUN})*)"
    "|.[\\u0300-\\u036f\\u1160-\\u11ff\\u20d0-\\u20ff\\u3099\\u309a\\ufe20-\\ufe2f\\uff9e\\uff9f]*",
    re.DOTALL,
)


@dataclass(frozen=True)
class Occurrence:
    """A place in the text as written: where one term occurs, or (proximity) where all of them occur together."""

    start: int
    end: int
    term: str


@dataclass(frozen=True)
class Occurrences:
    """The first places at or after a start, in order of position; how many places the whole text holds; and where
    the next page of places begins (None when there is none after these).

    Every occurrence of every term is a place, so two terms found at one place count twice (as they are listed
    twice); in proximity, a place is where all the terms occur within NEAR_CHARS."""

    first: list[Occurrence]
    total: int
    next_start: int | None


# How close all the terms must be to make one place in proximity: about two sentences of a judgment.
NEAR_CHARS = 200


def aligned(text: str) -> tuple[str, list[int]]:
    """The normalised text and, for each of its characters, the offset in `text` it comes from."""
    starts: list[int] = []
    pieces: list[str] = []
    for segment in _SEGMENT.finditer(text):
        # Only a numeral segment is read as one: a 千 after an Arabic number stays as it is, as in normalize().
        written = segment.group()
        piece = normalize(written) if segment.group("numeral") else unicodedata.normalize("NFKC", written).casefold()
        starts.extend([segment.start()] * len(piece))
        pieces.append(piece)
    return "".join(pieces), starts


# Where each part of a decision lies in the text as written, by its name (主文): a term confined to a part is found
# only there, and nowhere if the text does not hold the part.
Regions = Mapping[str, tuple[int, int]]


def occurrences(
    text: str, terms: tuple[Term, ...], first: int, start: int = 0, regions: Regions | None = None
) -> Occurrences:
    """The first `first` occurrences of the terms in `text` at or after offset `start`, as the search reads them (a
    citation only where whole, from its 第), in order of position; and the exact count of all of them. Counting
    without keeping is cheap: 20 one-character terms over 300,000 characters (103,422 matches) take 9 ms, where
    normalising takes 250.

    >>> from search_core.kinds.case_law.query import parse
    >>> found = occurrences("第七百九条と第1709条、709条", parse("709条").positive_terms, 1)
    >>> [(o.start, o.end, o.term) for o in found.first], found.total, found.next_start
    ([(0, 5, '709条')], 2, 13)
    """
    plain, starts = aligned(text)
    from_plain = bisect_left(starts, start)
    kept: list[Occurrence] = []
    for term in terms:
        # One more than a page per term: the page's places, and whether (and where) a next page begins.
        after = dropwhile(lambda span: span[0] < from_plain, _spans(term, plain, starts, regions or {}))
        kept += [_occurrence(span, starts, len(text), term.text) for span in islice(after, first + 1)]
    total = sum(1 for term in terms for _ in _spans(term, plain, starts, regions or {}))
    return _page(sorted(kept, key=lambda o: (o.start, o.term)), first, total)


def near_places(
    text: str, clauses: tuple[tuple[Term, ...], ...], first: int, start: int = 0, regions: Regions | None = None
) -> Occurrences:
    """The places where every clause (one of its terms: OR) occurs within NEAR_CHARS of the first, left to right
    and never overlapping: each is the shortest stretch that begins at an occurrence and holds all the clauses.
    Paged as `occurrences`.

    >>> from search_core.kinds.case_law.query import parse
    >>> text = "過失は争う。" + "あ" * 300 + "過失と損害の因果関係。損害"
    >>> found = near_places(text, parse("過失 損害").clauses, 5)
    >>> [(o.start, o.end, o.term) for o in found.first], found.total
    ([(306, 311, '過失 損害')], 1)
    """
    plain, starts = aligned(text)
    spans = sorted(
        (span, index)
        for index, clause in enumerate(clauses)
        for term in clause
        for span in _spans(term, plain, starts, regions or {})
    )
    label = " ".join(" OR ".join(term.text for term in clause) for clause in clauses)
    places = [_occurrence(stretch, starts, len(text), label) for stretch in _stretches(spans, len(clauses))]
    return _page([place for place in places if place.start >= start], first, len(places))


def _spans(term: Term, plain: str, starts: list[int], regions: Regions) -> Iterator[tuple[int, int]]:
    """The term's spans in the normalised text: within its part when it is confined to one, else within any part
    (when `regions` names the parts: text between them, such as added headings, is not searched)."""
    if term.field is not None:
        bounds = [regions.get(term.field, (0, 0))]
    elif regions:
        bounds = list(regions.values())
    else:
        return term.spans(plain)
    return (
        span
        for span in term.spans(plain)
        if any(low <= starts[span[0]] and starts[span[1] - 1] < high for low, high in bounds)
    )


def _stretches(spans: list[tuple[tuple[int, int], int]], terms: int) -> list[tuple[int, int]]:
    """The shortest stretches holding every term, left to right, none overlapping the one before: one pass with a
    window of spans (sorted by start, each with its term's index) that never moves back."""
    found: list[tuple[int, int]] = []
    counts = [0] * terms
    held = left = right = 0  # the window is spans[left:right]; `held` terms occur in it
    while left < len(spans):
        while held < terms and right < len(spans) and spans[right][0][0] - spans[left][0][0] <= NEAR_CHARS:
            held += counts[spans[right][1]] == 0
            counts[spans[right][1]] += 1
            right += 1
        if held == terms:
            end = max(span_end for (_, span_end), _ in spans[left:right])
            found.append((spans[left][0][0], end))
            next_left = next((i for i in range(right, len(spans)) if spans[i][0][0] >= end), len(spans))
        else:
            next_left = left + 1
        for (_, _), index in spans[left : min(next_left, right)]:
            counts[index] -= 1
            held -= counts[index] == 0
        left, right = next_left, max(right, next_left)
    return found


def _page(places: list[Occurrence], first: int, total: int) -> Occurrences:
    """The first `first` of `places` (those at or after the start, in order); a page never splits places that
    begin at one offset, so the next page, from `next_start`, repeats none and skips none."""
    shown = places[:first]
    if len(places) > first:
        boundary = places[first].start
        shown = [place for place in shown if place.start < boundary] or [p for p in places if p.start == boundary]
    rest = places[len(shown) :]
    return Occurrences(shown, total, rest[0].start if rest else None)


def _occurrence(span: tuple[int, int], starts: list[int], length: int, term: str) -> Occurrence:
    """A span of the normalised text, as offsets into the text as written."""
    start, end = span
    return Occurrence(starts[start], starts[end] if end < len(starts) else length, term)
