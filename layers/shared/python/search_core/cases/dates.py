"""Decision dates as stored (ISO or Japanese era text) turned into real dates, so they sort by time."""

from __future__ import annotations

import re
from datetime import date

from search_core.cases.normalize import normalize

# First Gregorian year of each era; era year N is first_year + N - 1.
_ERAS = {"令和": 2019, "平成": 1989, "昭和": 1926, "大正": 1912, "明治": 1868}
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
