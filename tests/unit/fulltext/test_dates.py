"""Decision dates in every writing (era, Western, full width), and their order."""

from __future__ import annotations

from datetime import date

import pytest

from search_core.fulltext.dates import parse_decision_date


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2024-12-01", date(2024, 12, 1)),
        ("2024/12/01", date(2024, 12, 1)),
        ("令和7年3月7日", date(2025, 3, 7)),
        ("令和元年5月1日", date(2019, 5, 1)),
        ("平成31年4月30日", date(2019, 4, 30)),
        ("令和７年３月７日", date(2025, 3, 7)),
        ("令和七年三月七日", date(2025, 3, 7)),
        ("令和六年十二月二十日", date(2024, 12, 20)),
        ("昭和64年1月7日", date(1989, 1, 7)),
        ("平成元年1月8日", date(1989, 1, 8)),
        ("令和 7 年 3 月 7 日判決", date(2025, 3, 7)),
        ("日付不明", None),
        ("", None),
        ("令和7年2月30日", None),
    ],
)
def test_decision_dates(text: str, expected: date | None) -> None:
    assert parse_decision_date(text) == expected


def test_era_dates_sort_by_time_not_by_text() -> None:
    texts = ["令和9年12月31日", "令和10年1月1日", "平成31年4月30日", "令和元年5月1日"]
    ordered = sorted(texts, key=lambda t: parse_decision_date(t) or date.min, reverse=True)
    assert ordered == ["令和10年1月1日", "令和9年12月31日", "令和元年5月1日", "平成31年4月30日"]
