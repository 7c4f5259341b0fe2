"""Macros for the time in Japan: Lambda runs in UTC, the data and the questions are in JST (UTC+9, no DST)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

from search_core.engine.table import Macro

JST = timezone(timedelta(hours=9), "JST")
_WEEKDAYS = "月火水木金土日"

# epoch_us() reads the instant whatever the session time zone is, so the result never depends on TimeZone.
JST_NOW = Macro(
    signature="jst_now()",
    body="make_timestamp(epoch_us(now())) + INTERVAL 9 HOUR",
    description="現在の日本時間（TIMESTAMP）",
    example="SELECT jst_now() AS now, dayname(jst_now()) AS weekday",
)
JST_TODAY = Macro(
    signature="jst_today()",
    body="CAST(jst_now() AS DATE)",
    description="今日の日付（日本時間、DATE）",
    example="SELECT jst_today() + INTERVAL 7 DAY AS one_week_later",
)
JST_MACROS = (JST_NOW, JST_TODAY)


def jst_now() -> datetime:
    """The time in Japan now."""
    return datetime.now(UTC).astimezone(JST)


def jst_today() -> date:
    """Today in Japan: the day a statute's version is chosen for when none is asked."""
    return jst_now().date()


def jst_now_text(now: datetime | None = None) -> str:
    """The time in Japan as the agent reads it.

    >>> jst_now_text(datetime(2026, 11, 25, 18, 5, tzinfo=UTC))
    '2026-11-26（木）03:05'
    """
    local = (now or jst_now()).astimezone(JST)
    return f"{local:%Y-%m-%d}（{_WEEKDAYS[local.weekday()]}）{local:%H:%M}"
