"""One normal form for text and keywords, so that the spellings a reader treats as equal match each other.

NFKC folds full-width letters and digits (ＰＲＯＶＩＤＥＲ → PROVIDER) and the ideographic space; casefold folds
case; kanji numerals become Arabic ones (第七百九条 → 第709条, 令和七年 → 令和7年, 三百万 → 300万), as law-retrieval
tools do.

>>> normalize("ＰＲＯＶＩＤＥＲ責任法　第七百九条")
'provider責任法 第709条'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator

_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_DIGITS |= {str(digit): digit for digit in range(10)}  # 3百万: Arabic digits may count a small unit too
_SMALL_UNITS = {"十": 10, "百": 100, "千": 1000}
_LARGE_UNITS = {"万": 10_000, "億": 100_000_000, "兆": 1_000_000_000_000}
# A numeral starts with a digit or a small unit (万 alone, as in 万一, is a word, not a number); Arabic digits belong
# to it only right before 十, 百 or 千 (3百万, 1億5千万), which they count: any other Arabic number is left as it is.
# A numeral never starts inside an Arabic number: 3,000千円 (thousands of yen) is 3,000 thousands, one numeral, not
# 3,000 then 千 (3,0001000円). An Arabic run before 十, 百 or 千 may hold thousands commas. The runs are possessive
# and an Arabic run bounded (no numeral is converted past _MAX_NUMERAL_CHARS): kept, every way back would make a run
# of ",,1" take quadratic time and a run of 一 300 bytes a character.
_ARABIC = "[0-9][0-9,]{0,23}+(?=[十百千])"
# Inside a numeral, Arabic digits right after a small unit, as many as it leaves room for, are its last places, as
# kanji would be (1千300万円 is 1300万円, not 1000 then 300万; 第1千3条 is 第千三条, 第1003条).
_LAST_PLACES = "(?:(?<=千)[0-9]{1,3}|(?<=百)[0-9]{1,2}|(?<=十)[0-9])(?![0-9,.])"
_NUMERAL = re.compile(
    f"(?<![0-9])(?:[〇零一二三四五六七八九十百千]|(?<![0-9][,.]){_ARABIC})"
    f"(?:[〇零一二三四五六七八九十百千万億兆]|{_ARABIC}|{_LAST_PLACES})*+"
)
# Two digits written side by side before 十, 百 or 千 are a vague number, not one: 二三百万円 and 四五十万円 are "two
# or three million", "forty or fifty thousand"; so is a digit and 、 before a numeral (二、三百万円, 二、三万円: not
# 2300万円 and 2,300万円). Such a numeral is left as written, so no sum and no number is found in it.
# Digits side by side before 万, 億 or 兆 are positional, as vertical writing puts them (金一二三万円 is 123万円).
_SIDE_BY_SIDE = re.compile("[一二三四五六七八九]{2}(?=[十百千])")
_VAGUE_BEFORE = re.compile("[一二三四五六七八九]、")
_UNITS_AFTER_DIGIT = frozenset("十百千万億兆")
# The formal numerals (大字) of sums and registers (金壱百萬円, 金参拾万円, and the old forms 金壹萬圓, 金參拾萬円),
# read as the common ones, but only in a sum: right before 円, and after 金 or what is no kanji (参 and 拾 are also
# words: 参加, 拾う, 賃金参考資料; 陸 in 北陸一円 is the 陸 of a region). Like a numeral, never right after
# an Arabic digit. A run is read only from its start, so no run is scanned again from inside it (a long run costs its
# length, not its square).
_FORMAL_DIGITS = "壱壹弐貳弍参參肆伍陸漆柒捌玖拾佰陌阡仟萬"
_FORMAL = str.maketrans(_FORMAL_DIGITS, "一一二二二三三四五六七七八九十百百千千万")
_NUMERAL_CHAR = f"[〇零一二三四五六七八九十百千万億兆{_FORMAL_DIGITS}]"
_FORMAL_RUN = re.compile(
    f"(?:(?<=金)|(?<![0-9\u3400-\u9fff々]))(?={_NUMERAL_CHAR}*?[{_FORMAL_DIGITS}]){_NUMERAL_CHAR}++(?=円)"
)
# Folded one character for another (NFKC leaves them): 圓 is the old form of 円. Circled numbers are numbered items:
# ① reads (1), so the numeral after it is read (①一審判決 is (1)1審判決; NFKC alone makes 1一審判決, 一 unread).
_FOLDED = {ord("圓"): "円"} | {
    ord(char): f"({unicodedata.normalize('NFKC', char)})"
    for char in map(chr, [*range(0x2460, 0x2474), *range(0x3251, 0x3260), *range(0x32B1, 0x32C0)])
}
# 、 between thousands reads as a comma, where digits of one kind stand on both sides (金一、〇〇〇、〇〇〇円 is
# 1,000,000円; 金1、300万円 is 1,300万円), and only there: after 唯一、 or 再三、 a sum stands alone, and 二、三百万円
# is a vague sum (not 1,100万円, 3,300万円 and 2,300万円).
_THOUSANDS = re.compile(
    r"(?<=[0-9])、(?=[0-9]{3}(?![0-9]))|(?<=[〇一二三四五六七八九])、(?=[〇一二三四五六七八九]{3}(?![〇一二三四五六七八九十百千]))"
)
# ノ before an article's branch number, once its numerals are Arabic (第266条ノ3 is 第266条の3).
_BRANCH = re.compile(r"(?<=[0-9][条項号])ノ(?=[0-9])")
# The parts of a numeral between its large units, each converted on its own.
_SECTION = re.compile("[^万億兆]+")
# No numeral a reader writes is longer; a longer run is left as written (and Python will not print an int of
# more than 4,300 digits).
_MAX_NUMERAL_CHARS = 24


def normalize(text: str) -> str:
    """NFKC, casefold and Arabic numerals (formal ones in sums too): the form every search compares.

    >>> normalize("金壱百萬円と金参拾万円を参照"), normalize("参加"), normalize("金1、000、000円と1、2、3と第266条ノ3")
    ('金100万円と金30万円を参照', '参加', '金1,000,000円と1、2、3と第266条の3')
    """
    marked, found = numerals(fold(text))
    return branch_numbers(with_numerals(marked, found))


def fold(text: str) -> str:
    """NFKC and casefold, circled numbers read as numbered items: the normal form of text without its numerals.

    >>> fold("ＡＢＣ①")
    'abc(1)'
    """
    return unicodedata.normalize("NFKC", text.translate(_FOLDED)).casefold()


def numerals(folded: str) -> tuple[str, Iterator[tuple[int, int, str]]]:
    """Folded text with its thousands marked and formal numerals in sums made common (both one character for one,
    so offsets hold), and each numeral in it, in order, read as it is reached: (start, end, its Arabic writing)."""
    marked = _FORMAL_RUN.sub(lambda run: run.group().translate(_FORMAL), _THOUSANDS.sub(",", folded))
    return marked, ((found.start(), found.end(), _arabic(found)) for found in _NUMERAL.finditer(marked))


def with_numerals(text: str, found: Iterable[tuple[int, int, str]]) -> str:
    """`text` with each numeral found in it replaced by its Arabic writing."""
    pieces, done = [], 0
    for start, end, arabic in found:
        pieces += [text[done:start], arabic]
        done = end
    pieces.append(text[done:])
    return "".join(pieces)


def branch_numbers(text: str) -> str:
    """ノ before an article's branch number read as の, on text whose numerals are Arabic (one character for one)."""
    return _BRANCH.sub("の", text)


def split_keywords(keywords: str) -> list[str]:
    """Keywords split on ASCII and full-width spaces, normalised, duplicates dropped, order kept.

    >>> split_keywords("損害賠償　ＰＲＯＶＩＤＥＲ  provider")
    ['損害賠償', 'provider']
    """
    return list(dict.fromkeys(normalize(keywords).split()))


def kanji_number(numeral: str) -> int:
    """The value of a kanji numeral, positional (二〇二四) or with units (七百九, 一万二千).

    >>> [kanji_number(n) for n in ("七百九", "二〇二四", "十", "千九百八十九", "一万二千三百", "3百", "5千2百")]
    [709, 2024, 10, 1989, 12300, 300, 5200]
    >>> kanji_number("3,000千")
    3000000
    """
    if not any(c in _SMALL_UNITS or c in _LARGE_UNITS for c in numeral):
        return int("".join(str(_DIGITS[c]) for c in numeral))
    total = section = digit = 0
    for char in numeral:
        if char == ",":  # a thousands comma in an Arabic run (3,000千)
            continue
        if char in _DIGITS:
            digit = digit * 10 + _DIGITS[char]
        elif char in _SMALL_UNITS:
            section += (digit or 1) * _SMALL_UNITS[char]
            digit = 0
        else:
            total += (section + digit or 1) * _LARGE_UNITS[char]
            section = digit = 0
    return total + section + digit


def _arabic(match: re.Match[str]) -> str:
    """The numeral in Arabic digits, keeping 万, 億 and 兆 as decisions write amounts (三百万円 → 300万円, as in
    金300万円), or as written when it is too long to be one.

    >>> normalize("一" * 30) == "一" * 30, normalize("金三百万円"), normalize("一億二千万"), normalize("千九百八十九")
    (True, '金300万円', '1億2000万', '1989')
    >>> [normalize(n) for n in ("3百万円", "1億5千万円", "一億5千万円", "3千5百万円", "3万円", "3,000千円", "1.5千円")]
    ['300万円', '1億5000万円', '1億5000万円', '3500万円', '3万円', '3000000円', '1.5千円']
    >>> [normalize(n) for n in ("金1千300万円", "千50円", "2億3千5万円", "第1千3条", "二十3人")]
    ['金1300万円', '1050円', '2億3005万円', '第1003条', '23人']
    """
    numeral = match.group()
    if len(numeral) > _MAX_NUMERAL_CHARS or _vague(match):
        return numeral
    return _SECTION.sub(lambda section: _section(section.group()), numeral)


def _vague(match: re.Match[str]) -> bool:
    """Whether a numeral is two numbers side by side, a vague one (二三百万, or 二、三百万).

    >>> [normalize(n) for n in ("二三百万円", "二、三百万円", "四五十万円", "唯一、100万円", "一二万円")]
    ['二三百万円', '2、三百万円', '四五十万円', '唯1、100万円', '12万円']
    """
    numeral, start = match.group(), match.start()
    after_digit = _VAGUE_BEFORE.fullmatch(match.string, max(start - 2, 0), start) is not None
    return _SIDE_BY_SIDE.search(numeral) is not None or (after_digit and numeral[1:2] in _UNITS_AFTER_DIGIT)


def _section(section: str) -> str:
    """A part of a numeral between large units in Arabic digits: positional digits one for one, zeros kept (〇〇〇
    is 000, as in 一、〇〇〇、〇〇〇, not 0).

    >>> _section("〇〇〇"), _section("二〇二四"), _section("三百五")
    ('000', '2024', '305')
    """
    if not any(char in _SMALL_UNITS for char in section):
        return "".join(str(_DIGITS[char]) for char in section if char != ",")
    return str(kanji_number(section))
