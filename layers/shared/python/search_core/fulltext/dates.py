"""Decision dates as stored (ISO or Japanese era text) turned into real dates, so they sort by time."""

from __future__ import annotations

import re
from datetime import date

from search_core.fulltext.normalize import normalize

# First Gregorian year of each era; era year N is first_year + N - 1.
_ERAS = {"令和": 2019, "平成": 1989, "昭和": 1926, "大正": 1912, "明治": 1868}
# The days each era ran (a year or month written in an era is only the part of it inside the era).
_ERA_DAYS = {
    "令和": (date(2019, 5, 1), date.max),
    "平成": (date(1989, 1, 8), date(2019, 4, 30)),
    "昭和": (date(1926, 12, 25), date(1989, 1, 7)),
    "大正": (date(1912, 7, 30), date(1926, 12, 24)),
    "明治": (date(1868, 10, 23), date(1912, 7, 29)),
}
# A whole keyword that is a date, a month or a year (already normalised: Arabic digits, half width; ASCII digits
# only, since other scripts' digits are not a date a Japanese reader writes).
_ERA_SPAN = re.compile(r"(令和|平成|昭和|大正|明治)(元|[0-9]{1,2})年(?:([0-9]{1,2})月(?:([0-9]{1,2})日)?)?")
_YEAR_SPAN = re.compile(
    r"([0-9]{4})年(?:([0-9]{1,2})月(?:([0-9]{1,2})日)?)?|([0-9]{4})[-/.]([0-9]{1,2})(?:[-/.]([0-9]{1,2}))?"
)
_ERA_DATE = re.compile(r"(令和|平成|昭和|大正|明治)\s*(元|\d+)\s*年\s*(\d+)\s*月\s*(\d+)\s*日")
_ISO_DATE = re.compile(r"(\d{4})[-/.年]\s*(\d{1,2})[-/.月]\s*(\d{1,2})日?")


def parse_decision_date(text: str | None) -> date | None:
    """The calendar date in `text`, or None when there is none.

    >>> [parse_decision_date(t) for t in ("令和元年5月1日", "平成３１年４月３０日", "令和七年三月七日", "2024-12-01")]
    [datetime.date(2019, 5, 1), datetime.date(2019, 4, 30), datetime.date(2025, 3, 7), datetime.date(2024, 12, 1)]
    """
    if not text:
        return None
    plain = normalize(text)
    era = _ERA_DATE.search(plain)
    try:
        if era:
            year = 1 if era.group(2) == "元" else int(era.group(2))
            return date(_ERAS[era.group(1)] + year - 1, int(era.group(3)), int(era.group(4)))
        iso = _ISO_DATE.search(plain)
        return date(int(iso.group(1)), int(iso.group(2)), int(iso.group(3))) if iso else None
    except ValueError:
        return None


def date_span(term: str) -> tuple[date, date] | None:
    """The days a keyword names when it is wholly a date, a month or a year, in any common writing; else None.

    >>> date_span("2019-04-30"), date_span("令和1年") == date_span("令和元年")
    ((datetime.date(2019, 4, 30), datetime.date(2019, 4, 30)), True)
    >>> date_span("平成31年"), date_span("2019年4月")
    ((datetime.date(2019, 1, 1), datetime.date(2019, 4, 30)), (datetime.date(2019, 4, 1), datetime.date(2019, 4, 30)))
    >>> date_span("損害賠償"), date_span("2019年4月31日")
    (None, None)
    """
    era = _ERA_SPAN.fullmatch(term)
    try:
        if era:
            year = _ERAS[era.group(1)] + (1 if era.group(2) == "元" else int(era.group(2))) - 1
            first, last = _span(year, era.group(3), era.group(4))
            begins, ends = _ERA_DAYS[era.group(1)]
            first, last = max(first, begins), min(last, ends)
            return (first, last) if first <= last else None
        plain = _YEAR_SPAN.fullmatch(term)
        if plain:
            return _span(*_year_parts(plain))
    except ValueError:
        return None
    return None


def _year_parts(match: re.Match[str]) -> tuple[int, str | None, str | None]:
    kanji_style, iso_style = match.groups()[:3], match.groups()[3:]
    year, month, day = kanji_style if kanji_style[0] is not None else iso_style
    return int(year), month, day


def _span(year: int, month: str | None, day: str | None) -> tuple[date, date]:
    """All of `year`, of its `month`, or the one day (ValueError if there is no such day)."""
    if month is None:
        return date(year, 1, 1), date(year, 12, 31)
    if day is None:
        first = date(year, int(month), 1)
        following = date(year + (first.month == 12), first.month % 12 + 1, 1)
        return first, date.fromordinal(following.toordinal() - 1)
    day_itself = date(year, int(month), int(day))
    return day_itself, day_itself
