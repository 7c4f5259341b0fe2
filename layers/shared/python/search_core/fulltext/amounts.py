"""Sums of money matched by their value, in every writing decisions use, and never inside a larger number.

Decisions write one sum as 金三百万円, 金参百萬円, 金３００万円, 金3,000,000円, 300万円, 3000000円 or 0.03億円.
Normalised (normalize.py: full width to ASCII, 三百万 and 参百萬 to 300万) these are a few writings, each derived
from the value: with 万, 億 and 兆, each part plain or with a thousands comma (1億2000万円, 1億2,000万円), with
commas (120,000,000円), plain (120000000円), and as a decimal of one unit (1.2億円). A keyword that is wholly one of
them, perhaps after 金, is an Amount. It holds where one of its writings stands whole: not after a digit, a 万, 億
or 兆, or a comma or point that follows a digit (1,300万円, 1、300万円, 3300万円 and 1億300万円 are other sums,
while 「対し,300万円」 is this one) and not before 銭 (1万円50銭).

>>> amount = Amount.read("金300万円")
>>> amount.value, [amount.holds(t) for t in ("被告は金3,000,000円を", "3000000円", "1,300万円", "3300万円")]
(3000000, [True, True, False, False])

The index holds, for each decision, the key of every sum it holds (amount_keys, by the rule above), so an amount's
candidates are exactly the decisions holding it, and none is read.

A number without 円 (300万) is not an amount: it stays a phrase, found as written (inside 1,300万 too). Neither is a
writing no decision uses (300万0000円, 12000万円): it too stays a phrase, so an amount finds exactly its writings,
and its key exactly the decisions that hold one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property, lru_cache
from itertools import product

from pyroaring import BitMap

from search_core.fulltext.terms import DecisionIndex, Term

_UNITS = (("兆", 10**12), ("億", 10**8), ("万", 10**4))
_SIZES = dict(_UNITS) | {"": 1}
# A keyword that may be an amount: 金, digits, commas and units, then 円; no sum a reader writes is longer.
_KEYWORD = re.compile(r"金?([0-9,.万億兆]{1,40})円")
_PARTS = re.compile(r"([0-9][0-9,]*(?:\.[0-9]+)?)([万億兆]?)")
# A sum written with a decimal point before its unit (1.5億円, 0.03億円) has at most this many decimals.
_MOST_DECIMALS = 4
# What, right before a writing, makes it the end of a larger number: a digit or a unit, or a comma or point after a
# digit (a Japanese comma written ， reads as , too, and may follow a word; 1、300万円 writes 13 million and reads
# 1,300万円: normalize.py), or 数, 何 or 幾, which make it no sum at all (数百万円 is not 100万円). A 、 left
# after a digit is a reading comma (唯一、100万円 holds 100万円).
_LARGER_BEFORE = re.compile(r"(?:[0-9][,.]?|[万億兆数何幾])\Z")
# Every place a sum may be written in a text, overlapping: a digit not after a digit or a unit, as many of the
# characters of a sum as a keyword may hold, then 円 not before 銭.
# Never from inside a number (after a digit and a comma: _LARGER_BEFORE would refuse it anyway), so a run of ",1"
# is scanned once, not from each of its digits (a million of them would take seconds a term).
_WRITTEN = re.compile(r"(?<![0-9万億兆])(?<![0-9][,.])(?=([0-9][0-9,.万億兆]{0,39})円(?![0-9]+銭))")
# The kind of key the index holds for a sum, before its value in yen.
YEN = "yen:"


def writings(value: int) -> tuple[str, ...]:
    """Every writing of `value` yen in normalised text, without 金, in order: with units, with commas, plain, as a
    decimal of a unit.

    >>> writings(120_000_000)
    ('1億2000万円', '1億2,000万円', '120,000,000円', '120000000円', '1.2億円')
    >>> writings(102_000_000)[:3]
    ('1億200万円', '1億0200万円', '102,000,000円')
    >>> writings(55_000), writings(500)
    (('5万5000円', '5万5,000円', '55,000円', '55000円', '5.5万円'), ('500円', '0.05万円'))
    """
    parts: list[tuple[int, str]] = []
    rest = value
    for unit, size in _UNITS:
        number, rest = divmod(rest, size)
        if number:
            parts.append((number, unit))
    if rest or not parts:
        parts.append((rest, ""))
    # A part after a larger unit may be written with its four places (1億0200万円, which 1億円以上 must find)
    spellings = product(
        *(
            dict.fromkeys((str(number), f"{number:,}", *([f"{number:04d}"] if at else [])))
            for at, (number, _) in enumerate(parts)
        )
    )
    with_units = ("".join(n + unit for n, (_, unit) in zip(numbers, parts, strict=True)) for numbers in spellings)
    return tuple(dict.fromkeys([*(f"{n}円" for n in with_units), f"{value:,}円", f"{value}円", *_decimal(value)]))


def _decimal(value: int) -> list[str]:
    """The writings of `value` yen as a decimal of one unit (1.5億円, 0.03億円), where one has at most
    _MOST_DECIMALS decimals, fewer than 10,000 of the unit, and not a whole number of it.

    >>> _decimal(150_000_000), _decimal(3_000_000), _decimal(25_000), _decimal(123_456_789)
    (['1.5億円'], ['0.03億円'], ['2.5万円'], [])
    """
    found = []
    for unit, size in _UNITS:
        whole, part = divmod(value, size)
        decimals = f"{part:0{len(str(size)) - 1}d}".rstrip("0")
        if part and len(decimals) <= _MOST_DECIMALS and whole < 10_000:  # never 12345.6789万円: 1億2345万6789円
            found.append(f"{whole}.{decimals}{unit}円")
    return found


@dataclass(frozen=True)
class Amount(Term):
    """A keyword that is a sum in yen: `text` as written (normalised, for messages), `value` in yen.

    Its pieces are its writings: a decision holds one of them, not all, so its quick test looks for any; its
    candidates are the decisions holding its key (amount_keys). A span covers the sum as written, with the 金 written
    right before it.

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
        value = _value(match.group(1))
        return None if value is None else cls(written, value)

    @property
    def pieces(self) -> tuple[str, ...]:
        return writings(self.value)

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        # No writing stands whole inside another writing found (its inner characters follow a digit, a unit or a
        # digit and comma), so skipping past each one found misses none.
        for match in self._writings.finditer(text):
            if (start := _sum_start(text, match.start())) is not None:
                yield start, match.end()

    def may_hold_in(self, utf8: bytes) -> bool:
        return self._any_writing_utf8.search(utf8) is not None

    @property
    def exact_by_index(self) -> bool:
        # amount_keys finds a sum where, and only where, `holds` does (tests/unit/fulltext/test_index_keys.py).
        return True

    @staticmethod
    def keys_in(text: str) -> set[str]:
        return amount_keys(text)

    @property
    def every_writing(self) -> bool:
        return True

    def candidates(self, index: DecisionIndex) -> BitMap:
        return index.holding_keys((f"{YEN}{self.value}",))

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


def amount_keys(text: str) -> set[str]:
    """The key of every sum a normalised text holds (as Amount.holds finds it), and of no other.

    >>> sorted(amount_keys("金3,000,000円、1,300万円、対し,5万円と1万円50銭"))
    ['yen:13000000', 'yen:3000000', 'yen:50000']
    """
    return {f"{YEN}{value}" for _, _, value in written_sums(text)}


def written_sums(text: str) -> Iterator[tuple[int, int, int]]:
    """Every sum a normalised text holds, by the rule above, in order: (start, end, value in yen), the span with its
    金. Read once a text, however many terms ask (twenty ranges would read a long decision twenty times), and
    only as far as they ask: a caller that stops early, or reads the clock between sums, is not kept waiting for a
    whole text to be read first (10 million characters of 1円 would take 47 s before the deadline is looked at).

    >>> list(written_sums("金3,000,000円と1,300万円と数百万円"))
    [(0, 11, 3000000), (12, 19, 13000000)]
    """
    return iter(sums_read(text))


class SumsRead:
    """The sums of one text, read as far as any caller has asked, shared by every caller."""

    def __init__(self, text: str) -> None:
        self._found: list[tuple[int, int, int]] = []
        self._unread = _sums_in(text)

    @property
    def read_so_far(self) -> int:
        return len(self._found)

    def __iter__(self) -> Iterator[tuple[int, int, int]]:
        # By index, as callers interleave (findInCase merges the spans of several ranges): each sees every sum once.
        read = 0
        while True:
            if read < len(self._found):
                yield self._found[read]
                read += 1
            elif (following := next(self._unread, None)) is not None:
                self._found.append(following)
            else:
                return


@lru_cache(maxsize=1)  # the text being checked: no more is kept past it
def sums_read(text: str) -> SumsRead:
    """The sums of `text` as read so far, the same for every caller while `text` is the one being checked."""
    return SumsRead(text)


def _sums_in(text: str) -> Iterator[tuple[int, int, int]]:
    for match in _WRITTEN.finditer(text):
        number = match.group(1)
        if (start := _sum_start(text, match.start())) is not None and (value := _value(number)) is not None:
            yield start, match.start() + len(number) + 1, value


def _sum_start(text: str, written: int) -> int | None:
    """Where a writing found at `written` begins as a sum, with the 金 written right before it; None if it is the
    end of a larger number or a vague one (_LARGER_BEFORE): the one rule Amount and written_sums both read by."""
    if _LARGER_BEFORE.search(text, max(written - 2, 0), written):
        return None
    return written - 1 if text[written - 1 : written] == "金" else written


# How a keyword bounds a sum, after its 円: at least, at most, more than, less than.
_BOUNDS = {"以上": (0, None), "以下": (None, 0), "超": (1, None), "を超える": (1, None), "未満": (None, -1)}
_RANGE_KEYWORD = re.compile(r"(金?[0-9,.万億兆]{1,40}円)(以上|以下|超|を超える|未満)")


@dataclass(frozen=True)
class AmountRange(Term):
    """A keyword that bounds a sum in yen (1億円以上, 300万円未満, 金500万円を超える): it holds where a sum in the
    range is written, by the same reading as Amount; its candidates are the decisions holding the key of such a sum,
    exactly, so none is read.

    >>> over = AmountRange.read("1億円以上")
    >>> (over.low, over.high), over.holds("金1億2000万円を支払え"), over.holds("金9,000万円"), over.holds("1億円")
    ((100000000, None), True, False, True)
    >>> AmountRange.read("300万円未満").high, AmountRange.read("300万円超").low, AmountRange.read("300万以上")
    (2999999, 3000001, None)
    """

    text: str
    low: int | None
    high: int | None

    @classmethod
    def read(cls, written: str) -> AmountRange | None:
        """The keyword as a range of sums, or None if it is not one sum in yen followed by 以上, 以下, 超, を超える or
        未満 (already normalised)."""
        match = _RANGE_KEYWORD.fullmatch(written)
        bound = Amount.read(match.group(1)) if match else None
        if match is None or bound is None:
            return None
        low, high = _BOUNDS[match.group(2)]
        return cls(
            written,
            None if low is None else bound.value + low,
            None if high is None else bound.value + high,
        )

    @property
    def pieces(self) -> tuple[str, ...]:
        return ("円",)

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        return ((start, end) for start, end, value in written_sums(text) if self._within(value))

    @property
    def exact_by_index(self) -> bool:
        # The keys of a decision are the sums written_sums finds in it; the range is read by the same test.
        return True

    keys_in = Amount.keys_in  # the keys of every sum, which a range reads by their numbers

    @property
    def every_writing(self) -> bool:
        return True

    def candidates(self, index: DecisionIndex) -> BitMap:
        return index.holding_any_key(YEN, self.low, self.high)

    def _within(self, value: int) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)


def _value(number: str) -> int | None:
    """The sum in yen that `number` (before 円) writes, or None if no decision writes a sum so (300万0000)."""
    exact = sum((Decimal(digits.replace(",", "")) * _SIZES[unit] for digits, unit in _PARTS.findall(number)), Decimal())
    if exact != exact.to_integral_value():  # 1.23456億円 is no whole number of yen
        return None
    value = int(exact)
    return value if f"{number}円" in writings(value) else None
