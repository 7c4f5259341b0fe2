"""Where terms occur in a decision, as offsets into its full text: the jump from a search hit to the passage.

The text is normalised as the search normalises it, folded and then its numerals read, keeping for each normalised
character the offset it came from, so a hit found in normal form (709条) is shown as written (七百九条) at the
offset /cases/text reads from.

>>> plain, starts = aligned("民法第七百九条")
>>> plain, plain.find("709条"), starts[plain.find("709条")]
('民法第709条', 3, 3)
"""

from __future__ import annotations

import math
import re
import time
import unicodedata
from array import array
from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from heapq import merge
from itertools import dropwhile
from typing import TypeVar

from search_core.fulltext.normalize import branch_numbers, fold, numerals
from search_core.fulltext.terms import Term

# A character with the marks NFKC composes into it (ｶﾞ → ガ, カ+U+3099 → ガ, jamo into a syllable) is folded as one;
# every other character on its own.
_MARKS = (
    "[\\u0300-\\u036f\\u1160-\\u11ff\\u20d0-\\u20ff\\u3099\\u309a\\ufe20-\\ufe2f\\uff9e\\uff9f"
    # Compatibility vowels (ㅏ), which NFKC makes conjoining ones, and the extended vowels and finals.
    "\\u314f-\\u3163\\u3187-\\u318e\\ud7b0-\\ud7ff]"
)
_SEGMENT = re.compile(f".{_MARKS}*", re.DOTALL)
# How often a long loop looks at the clock: often enough to stop within a millisecond or so of its deadline.
_CLOCK_EVERY = 4096
T = TypeVar("T")


@dataclass(frozen=True)
class Occurrence:
    """Where in the text as written one term occurs, or (proximity) where all of them occur together."""

    start: int
    end: int
    term: str


@dataclass(frozen=True)
class Place:
    """What one passage shows: the occurrences that begin within SHOWN_AFTER characters of its first, from the
    first's start to the last's end, with the names of the terms found (in order) and how many occurrences: a term
    five times in one sentence is one passage, not five near-copies that spend the limit on one place."""

    start: int
    end: int
    terms: tuple[str, ...]
    count: int

    @classmethod
    def of(cls, occurrence: Occurrence) -> Place:
        return cls(occurrence.start, occurrence.end, (occurrence.term,), 1)

    def holds(self, occurrence: Occurrence) -> bool:
        return occurrence.start < self.start + SHOWN_AFTER

    def joined(self, occurrence: Occurrence) -> Place:
        terms = self.terms if occurrence.term in self.terms else (*self.terms, occurrence.term)
        return Place(self.start, max(self.end, occurrence.end), terms, self.count + 1)


@dataclass(frozen=True)
class Occurrences:
    """The first places at or after a start, in order of position; how many occurrences (in proximity: places where
    all the terms occur) the whole text holds; and where the next page of places begins (None when there is none
    after these). Every occurrence of every term counts, so two terms found at one place count twice."""

    first: list[Place]
    total: int
    next_start: int | None


# What ends a sentence, for places where every term occurs in one.
_SENTENCE_END = re.compile("[。\n\r]")
# How much of the text a passage shows after its first occurrence: the occurrences within it are one place.
SHOWN_AFTER = 160
# How close all the terms must be to make one place in proximity: about two sentences of a judgment.
NEAR_CHARS = 200


def aligned(text: str, deadline: float = math.inf) -> tuple[str, array[int]]:
    """The normalised text and, for each of its characters, the offset in `text` it comes from.

    normalize() in two steps, each aligned: the text folded, then its numerals read (normalize.numerals), so both
    read the same text the same way (numerals read on the text as written would miss ⼆⼗万円, whose Kangxi radicals
    NFKC folds into 二十万円). Only characters with marks and characters that NFKC or casefold turn into more or
    fewer than one (㌖, ß) change the folding's alignment: the runs between them are folded whole and map one to one
    (folded a character at a time, a 10-million-character decision takes 32 s and 2.6 GB).
    Raises TimeoutError past `deadline` (time.monotonic)."""
    folded, folded_from = _folded(text, deadline)
    marked, found = numerals(folded)
    starts: array[int] = array("q")
    pieces: list[str] = []
    done = 0
    for start, end, arabic in until_deadline(deadline, found):
        pieces += [marked[done:start], arabic]
        starts.extend(folded_from[done:start])
        starts.extend([folded_from[start]] * len(arabic))
        done = end
    pieces.append(marked[done:])
    starts.extend(folded_from[done:])
    return branch_numbers("".join(pieces)), starts


def _folded(text: str, deadline: float) -> tuple[str, array[int]]:
    """fold(text) and, for each of its characters, the offset in `text` it comes from."""
    starts: array[int] = array("q")
    pieces: list[str] = []
    done = 0
    for segment in until_deadline(deadline, _special_segments(text).finditer(text)):
        _align_run(text, done, segment.start(), pieces, starts, deadline)
        piece = fold(segment.group())
        starts.extend([segment.start()] * len(piece))
        pieces.append(piece)
        done = segment.end()
    _align_run(text, done, len(text), pieces, starts, deadline)
    return "".join(pieces), starts


def _special_segments(text: str) -> re.Pattern[str]:
    """What in `text` may not fold one to one: characters followed by marks (those named above and any combining
    character the text holds: one Arabic madda would send a 6-million-character run a character at a time), and
    the text's characters whose folded form is not one character."""
    characters = set(text)
    odd = "".join(re.escape(char) for char in characters if len(fold(char)) != 1)
    combining = "".join(re.escape(char) for char in characters if unicodedata.combining(char))
    marks = f"(?:{_MARKS}|[{combining}])" if combining else _MARKS
    return re.compile(f".{marks}+" + (f"|[{odd}]" if odd else ""), re.DOTALL)


def _align_run(
    text: str, start: int, end: int, pieces: list[str], starts: array[int], deadline: float = math.inf
) -> None:
    """Fold text[start:end], which holds no special segment, onto `pieces` and `starts`."""
    if start == end:
        return
    run = text[start:end]
    folded = fold(run)
    if len(folded) == len(run):  # nothing composed across characters: one to one
        pieces.append(folded)
        starts.extend(range(start, end))
        return
    # A composition the marks above do not name: a segment at a time, the clock read as for the whole text
    for segment in until_deadline(deadline, _SEGMENT.finditer(run)):
        piece = fold(segment.group())
        starts.extend([start + segment.start()] * len(piece))
        pieces.append(piece)


def until_deadline(deadline: float, items: Iterable[T]) -> Iterator[T]:
    """`items`, raising TimeoutError once `deadline` (time.monotonic) has passed."""
    for count, item in enumerate(items):
        if count % _CLOCK_EVERY == 0 and time.monotonic() > deadline:
            raise TimeoutError("reading the decision ran past its deadline")
        yield item


# Where each part of a decision lies in the text as written, by its name (主文): a term confined to a part is found
# only there, and nowhere if the text does not hold the part.
Regions = Mapping[str, tuple[int, int]]


def occurrences(
    text: str,
    terms: tuple[Term, ...],
    first: int,
    start: int = 0,
    regions: Regions | None = None,
    deadline: float = math.inf,
    name: Callable[[Term], str] = lambda term: term.text,
) -> Occurrences:
    """The first `first` places where the terms occur in `text` at or after offset `start`, as the search reads them
    (a citation only where whole, from its 第), in order of position; and the exact count of all the occurrences.
    Counting without keeping is cheap: 20 one-character terms over 300,000 characters (103,422 matches) take 9 ms,
    where normalising takes 250. Raises TimeoutError past `deadline` (time.monotonic).

    >>> from search_core.fulltext.expression import parse
    >>> found = occurrences("第七百九条と第1709条、709条", parse("709条").positive_terms, 1)
    >>> [(o.start, o.end, o.terms, o.count) for o in found.first], found.total, found.next_start
    ([(0, 17, ('709条',), 2)], 2, None)
    """
    plain, starts = aligned(text, deadline)
    from_plain = bisect_left(starts, start)
    spans = _merged(enumerate(terms), plain, starts, regions)
    after = dropwhile(lambda span: span[0] < from_plain, spans)
    found = (_occurrence((s, e), starts, len(text), name(terms[index])) for s, e, index in after)
    places, next_start = _grouped(until_deadline(deadline, found), first)
    # Counted by a second scan of each term: faster than counting the merged stream (0.64 s against 0.85 s for
    # 900,000 occurrences), which pays for the merge's order.
    total = sum(
        1 for term in terms for _ in until_deadline(deadline, spans_in_parts(term, plain, starts, regions or {}))
    )
    return Occurrences(places, total, next_start)


@dataclass(frozen=True)
class PlacesByPart:
    """Where terms occur, by the part of the text each begins in (its index in the part starts; -1 before the
    first): each term's first place in each part (by part and the term's index), and the part's occurrences of each
    term (in the terms' order); the last LAST_KEPT places
    of the text; how many occurrences it holds; and the parts where some occurrence stands as a word of its own, not
    inside a longer compound of kanji (懸念 in 貸倒懸念債権).

    >>> from search_core.fulltext.expression import parse
    >>> found = places_by_part("貸倒懸念債権。懸念を示した。", parse("懸念").positive_terms, [0, 7])
    >>> found.worded, found.counts
    ({1}, {0: [1], 1: [1]})
    """

    firsts: dict[tuple[int, int], Place]
    counts: dict[int, list[int]]
    last: list[Place]
    total: int
    worded: set[int] = field(default_factory=set)


# How many of the text's last places places_by_part keeps.
LAST_KEPT = 4


def places_by_part(
    text: str,
    terms: tuple[Term, ...],
    part_starts: list[int],
    regions: Regions | None = None,
    deadline: float = math.inf,
    name: Callable[[Term], str] = lambda term: term.text,
) -> PlacesByPart:
    """Where the terms occur in each part that opens at `part_starts` (sorted), grouped as `occurrences` groups them
    and counted as it counts them, read as a stream: memory stays that of the parts however many places there are.
    Raises TimeoutError past `deadline` (time.monotonic).

    >>> from search_core.fulltext.expression import parse
    >>> text = "争点は過失である。" + "あ" * 200 + "過失1。損害。" + "い" * 200 + "過失2。" + "う" * 200 + "過失なし"
    >>> found = places_by_part(text, parse("過失 OR 損害").positive_terms, [text.index("過失1")])
    >>> {key: text[place.start : place.start + 3] for key, place in found.firsts.items()}, found.counts
    ({(-1, 0): '過失で', (0, 0): '過失1', (0, 1): '損害。'}, {-1: [1, 0], 0: [3, 1]})
    >>> [text[place.start : place.start + 3] for place in found.last], found.total
    (['過失で', '過失1', '過失2', '過失な'], 5)
    """
    plain, starts = aligned(text, deadline)
    spans = until_deadline(deadline, _merged(enumerate(terms), plain, starts, regions))
    firsts: dict[tuple[int, int], Place] = {}
    counts: dict[int, list[int]] = {}
    worded: set[int] = set()
    last: deque[Place] = deque(maxlen=LAST_KEPT)
    total = 0
    for span_start, span_end, index in spans:
        occurrence = _occurrence((span_start, span_end), starts, len(text), name(terms[index]))
        total += 1
        part = bisect_right(part_starts, occurrence.start) - 1
        counts.setdefault(part, [0] * len(terms))[index] += 1
        if part not in worded and not _compounded(text, occurrence.start, occurrence.end):
            worded.add(part)
        for held in range(len(terms)):  # a term's first place holds the occurrences of any term that follow it
            first = firsts.get((part, held))
            if first is not None and first.holds(occurrence):
                firsts[part, held] = first.joined(occurrence)
        firsts.setdefault((part, index), Place.of(occurrence))
        if last and last[-1].holds(occurrence):
            last[-1] = last[-1].joined(occurrence)
        else:
            last.append(Place.of(occurrence))
    return PlacesByPart(firsts, counts, list(last), total, worded)


def _compounded(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] lies inside a longer compound of kanji: one stands on each side of it."""
    return start > 0 and end < len(text) and _is_kanji(text[start - 1]) and _is_kanji(text[end])


def _is_kanji(char: str) -> bool:
    return "\u4e00" <= char <= "\u9fff" or char == "々"


def near_places(
    text: str,
    clauses: tuple[tuple[Term, ...], ...],
    first: int,
    start: int = 0,
    regions: Regions | None = None,
    deadline: float = math.inf,
    name: Callable[[Term], str] = lambda term: term.text,
    sentence: bool = False,
) -> Occurrences:
    """The places where every clause (one of its terms: OR) occurs within NEAR_CHARS of the first, left to right
    and never overlapping: each is the shortest stretch that begins at an occurrence and holds all the clauses.
    With `sentence`, the places are instead the sentences (ended by 。 or a line) that hold every clause, each from
    its first occurrence to its last (Ｄ３ attending and Ｄ１ raising the concern a sentence later is no place for
    Ｄ３ 懸念). Grouped and paged as `occurrences`, counted one by one; the occurrences are read as a stream, so
    memory stays that of the text however many there are. Raises TimeoutError past `deadline` (time.monotonic).

    >>> from search_core.fulltext.expression import parse
    >>> text = "過失は争う。" + "あ" * 300 + "過失と損害の因果関係。損害"
    >>> found = near_places(text, parse("過失 損害").clauses, 5)
    >>> [(o.start, o.end, o.terms) for o in found.first], found.total
    ([(306, 311, ('過失 損害',))], 1)
    >>> text = "監査役Ｄ３が出席した。Ｄ１は懸念を述べた。Ｄ３も懸念を示した。"
    >>> [(o.start, o.end) for o in near_places(text, parse("Ｄ３ 懸念").clauses, 5, sentence=True).first]
    [(21, 26)]
    """
    plain, starts = aligned(text, deadline)
    # The clock is read on the occurrences, not on the places: a term everywhere beside one that is absent makes
    # no place at all, and reading its occurrences may outrun the deadline.
    indexed = ((i, term) for i, clause in enumerate(clauses) for term in clause)
    spans = until_deadline(deadline, _merged(indexed, plain, starts, regions))
    label = " ".join(" OR ".join(name(term) for term in clause) for clause in clauses)
    stretches = _Counted(_in_sentences(spans, len(clauses), plain) if sentence else _stretches(spans, len(clauses)))
    found = (_occurrence(stretch, starts, len(text), label) for stretch in stretches)
    places, next_start = _grouped((place for place in found if place.start >= start), first)
    for _ in stretches:  # the rest, counted
        pass
    return Occurrences(places, stretches.count, next_start)


def _in_sentences(spans: Iterator[tuple[int, int, int]], terms: int, plain: str) -> Iterator[tuple[int, int]]:
    """From each sentence of `plain` (ended by 。 or a line break, LF or CR) that holds every term, the stretch from
    its first occurrence to its last, left to right; from spans sorted by start, each with its term's index."""
    sentence_end = -1  # where the sentence of the stretch being read ends (len(plain) for the last)
    held: set[int] = set()
    stretch: tuple[int, int] | None = None
    for span_start, span_end, index in spans:
        if _SENTENCE_END.search(plain, span_start, span_end - 1):  # a term holding a sentence's end is in none
            continue
        if span_start > sentence_end:  # the span begins in a later sentence: found by a search, not end by end
            if stretch is not None and len(held) == terms:
                yield stretch
            held, stretch = set(), None
            found = _SENTENCE_END.search(plain, span_start)
            sentence_end = found.start() if found else len(plain)
        held.add(index)
        stretch = (span_start, span_end) if stretch is None else (stretch[0], max(stretch[1], span_end))
    if stretch is not None and len(held) == terms:
        yield stretch


def _grouped(found: Iterator[Occurrence], first: int) -> tuple[list[Place], int | None]:
    """The first `first` places of the occurrences (in order of position), each holding those that begin within
    SHOWN_AFTER of its first; and where the next place begins (None: no occurrence after them). A page never splits
    a place, so the next page, from there, repeats none and skips none."""
    places: list[Place] = []
    for occurrence in found:
        if places and places[-1].holds(occurrence):
            places[-1] = places[-1].joined(occurrence)
        elif len(places) == first:
            return places, occurrence.start
        else:
            places.append(Place.of(occurrence))
    return places, None


class _Counted(Iterator[T]):
    """An iterator that counts what it has given."""

    def __init__(self, items: Iterator[T]) -> None:
        self._items = items
        self.count = 0

    def __next__(self) -> T:
        item = next(self._items)
        self.count += 1
        return item


def spans_in_parts(term: Term, plain: str, starts: array[int], regions: Regions) -> Iterator[tuple[int, int]]:
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


def _merged(
    indexed: Iterable[tuple[int, Term]], plain: str, starts: array[int], regions: Regions | None
) -> Iterator[tuple[int, int, int]]:
    """The spans of every term, in order of position, each with the index it is given (its place in the terms, or
    its clause's)."""
    return merge(*(_indexed(spans_in_parts(term, plain, starts, regions or {}), index) for index, term in indexed))


def _indexed(spans: Iterator[tuple[int, int]], index: int) -> Iterator[tuple[int, int, int]]:
    return ((start, end, index) for start, end in spans)


def _stretches(spans: Iterator[tuple[int, int, int]], terms: int) -> Iterator[tuple[int, int]]:
    """The shortest stretches holding every term, left to right, none overlapping the one before, from spans sorted
    by start (each with its term's index): one pass, with a window of the spans that begin within NEAR_CHARS of the
    window's first."""
    window: deque[tuple[int, int, int]] = deque()
    counts = [0] * terms
    held = 0  # how many terms occur in the window
    ahead = next(spans, None)
    while window or ahead is not None:
        while ahead is not None and held < terms and (not window or ahead[0] - window[0][0] <= NEAR_CHARS):
            window.append(ahead)
            held += counts[ahead[2]] == 0
            counts[ahead[2]] += 1
            ahead = next(spans, None)
        if held == terms:
            end = max(span_end for _, span_end, _ in window)
            yield window[0][0], end
            window.clear()
            counts, held = [0] * terms, 0
            while ahead is not None and ahead[0] < end:  # the next stretch begins after this one
                ahead = next(spans, None)
        else:  # no stretch begins at the window's first span
            _, _, index = window.popleft()
            counts[index] -= 1
            held -= counts[index] == 0


def _occurrence(span: tuple[int, int], starts: array[int], length: int, term: str) -> Occurrence:
    """A span of the normalised text, as offsets into the text as written."""
    start, end = span
    return Occurrence(starts[start], starts[end] if end < len(starts) else length, term)
