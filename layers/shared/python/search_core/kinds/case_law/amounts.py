"""Sums of money matched by their value, in every writing decisions use, and never inside a larger number.

Decisions write one sum as 金三百万円, 金３００万円, 金3,000,000円, 300万円 or 3000000円. Normalised (normalize.py:
full width to ASCII, 三百万 to 300万) these are a few writings, each derived from the value: with 万, 億 and 兆, each
part plain or with a thousands comma (1億2000万円, 1億2,000万円), with commas (120,000,000円), and plain
(120000000円). A keyword that is wholly one of them, perhaps after 金, is an Amount. It holds where one of its
writings stands whole: not after a digit, a 万, 億 or 兆, or a comma or point that follows a digit (1,300万円,
3300万円 and 1億300万円 are other sums, while 「対し,300万円」 is this one) and not before 銭 (1万円50銭).

>>> amount = Amount.read("金300万円")
>>> amount.value, [amount.holds(t) for t in ("被告は金3,000,000円を", "3000000円", "1,300万円", "3300万円")]
(3000000, [True, True, False, False])

A number without 円 (300万) is not an amount: it stays a phrase, found as written (inside 1,300万 too). Neither is a
writing no decision uses (300万0000円, 12000万円): it too stays a phrase, so an amount finds exactly its writings,
and the index, asked for each of them, finds every decision that holds it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from functools import cached_property
from itertools import product

from pyroaring import BitMap

from search_core.kinds.case_law.terms import DecisionIndex, Term

_UNITS = (("兆", 10**12), ("億", 10**8), ("万", 10**4))
_SIZES = dict(_UNITS) | {"": 1}
# A keyword that may be an amount: 金, digits, commas and units, then 円; no sum a reader writes is longer.
_KEYWORD = re.compile(r"金?([0-9,万億兆]{1,40})円")
_PARTS = re.compile(r"([0-9][0-9,]*)([万億兆]?)")
# What, right before a writing, makes it the end of a larger number: a digit or a unit, or a comma or point after a
# digit (a Japanese comma written ， reads as , too, and may follow a word).
_LARGER_BEFORE = re.compile(r"(?:[0-9][,.]?|[万億兆])\Z")


def writings(value: int) -> tuple[str, ...]:
    """Every writing of `value` yen in normalised text, without 金, in order: with units, with commas, plain.

    >>> writings(120_000_000)
    ('1億2000万円', '1億2,000万円', '120,000,000円', '120000000円')
    >>> writings(55_000), writings(500)
    (('5万5000円', '5万5,000円', '55,000円', '55000円'), ('500円',))
    """
    parts: list[tuple[int, str]] = []
    rest = value
    for unit, size in _UNITS:
        number, rest = divmod(rest, size)
        if number:
            parts.append((number, unit))
    if rest or not parts:
        parts.append((rest, ""))
    spellings = product(*(dict.fromkeys((str(number), f"{number:,}")) for number, _ in parts))
    with_units = ("".join(n + unit for n, (_, unit) in zip(numbers, parts, strict=True)) for numbers in spellings)
    return tuple(dict.fromkeys([*(f"{n}円" for n in with_units), f"{value:,}円", f"{value}円"]))


@dataclass(frozen=True)
class Amount(Term):
    """A keyword that is a sum in yen: `text` as written (normalised, for messages), `value` in yen.

    Its pieces are its writings: a decision holds one of them, not all, so its candidates are the decisions holding
    any writing's character pairs, and its quick test looks for any. A span covers the sum as written, with the 金
    written right before it.

    >>> amount = Amount.read("5万5000円")
    >>> list(amount.spans("金55,000円と5万5,000円と15,000円")), amount.count_in("5万5000円50銭")
    ([(0, 8), (9, 17)], 0)
    """

    text: str
    value: int

    @classmethod
    def read(cls, written: str) -> Amount | None:
        """The keyword as a sum, or None if it is not wholly one writing of a sum in yen (already normalised)."""
        match = _KEYWORD.fullmatch(written)
        if not match:
            return None
        number = match.group(1)
        value = sum(int(digits.replace(",", "")) * _SIZES[unit] for digits, unit in _PARTS.findall(number))
        return cls(written, value) if f"{number}円" in writings(value) else None

    @property
    def pieces(self) -> tuple[str, ...]:
        return writings(self.value)

    def holds(self, text: str, day: date | None = None) -> bool:
        return next(self.spans(text), None) is not None

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        # No writing stands whole inside another writing found (its inner characters follow a digit, a unit or a
        # digit and comma), so skipping past each one found misses none.
        for match in self._writings.finditer(text):
            start, end = match.span()
            if not _LARGER_BEFORE.search(text, max(start - 2, 0), start):
                yield (start - 1 if text[start - 1 : start] == "金" else start), end

    def count_in(self, text: str) -> int:
        return sum(1 for _ in self.spans(text))

    def may_hold_in(self, utf8: bytes) -> bool:
        return self._any_writing_utf8.search(utf8) is not None

    def candidates(self, index: DecisionIndex) -> BitMap:
        return BitMap.union(*(index.holding((writing,)) for writing in self.pieces))

    @cached_property
    def _any_writing_utf8(self) -> re.Pattern[bytes]:
        # One pass for every writing: 2.5 to 5 times faster than looking for each in turn (bench corpus).
        return re.compile(b"|".join(map(re.escape, self._pieces_utf8)))

    @cached_property
    def _writings(self) -> re.Pattern[str]:
        # The writings first, so the scan runs at the speed of finding their first digit: a leading 金? and
        # look-behinds took 0.6 ms a text of the bench corpus (14,000 characters), this 0.007. Never before 銭
        # (1万円50銭 is a larger sum).
        return re.compile(f"(?:{'|'.join(map(re.escape, self.pieces))})(?![0-9]+銭)")
