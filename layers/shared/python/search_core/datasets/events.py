"""events.csv: the columns of the existing system, kept as TEXT, plus typed date helpers."""

from __future__ import annotations

from search_core.datasets.spec import Column, DatasetSpec, Example

# date_time is 'YYYY-MM-DD' or 'YYYY-MM-DD/YYYY-MM-DD'; a value that is neither leaves the helpers NULL.
_START = "TRY_CAST(trim(split_part(date_time, '/', 1)) AS DATE)"
_END = f"coalesce(TRY_CAST(nullif(trim(split_part(date_time, '/', 2)), '') AS DATE), {_START})"

# Amounts are text such as '2,000円': its digits, as a number.
_YEN = "TRY_CAST(regexp_replace(cost->>'amount', '[^0-9]', '', 'g') AS INTEGER)"

EVENTS = DatasetSpec(
    name="events",
    title="イベント情報",
    columns=(
        Column("event_name", "TEXT", "イベント名"),
        Column("description", "TEXT", "イベントの説明"),
        Column(
            "date_time",
            "TEXT",
            "開催日。'YYYY-MM-DD' または期間 'YYYY-MM-DD/YYYY-MM-DD'（日付で絞るときは start_date / end_date）",
            examples=("2025-10-31", "2025-10-04/2025-10-05"),
        ),
        Column(
            "location", "JSON", '{"venue": 会場名, "address": 住所}', examples=("森美術館", "東京都港区麻布台1-3-1")
        ),
        Column(
            "capacity",
            "TEXT",
            "定員。単位付きのテキスト（数で比べるには "
            "TRY_CAST(replace(regexp_extract(capacity, '[0-9,]+'), ',', '') AS INTEGER)。数のない値は NULL になる）",
            examples=("100名", "2,000名", "16組"),
        ),
        Column("source_url", "TEXT", "情報元の URL"),
        Column("extracted_at", "TEXT", "情報を取得した日時（ISO 8601、+09:00）"),
        Column("additional_info", "TEXT", "補足情報（雨天時の扱い、持ち物、対象年齢など）", examples=("雨天決行",)),
        Column("contact_info", "JSON", '{"phone": 電話番号, "email": メール}'),
        Column(
            "cost",
            "JSON",
            '{"is_free": true/false, "amount": 金額のテキスト（"円" 付き・カンマ区切り、数値ではない）, '
            "\"notes\": 料金の補足}。無料は cost->>'is_free' = 'true'。金額で比べるには "
            f"{_YEN}",
            examples=("2,000円", "0円", "入場無料"),
        ),
        Column("registration_required", "TEXT", "事前申込が必要なら 'True'、不要なら NULL", examples=("True",)),
        Column("target_audience", "JSON", "対象者の配列", examples=("家族", "子供", "大人", "学生", "シニア")),
        Column("start_date", "DATE", "開始日（date_time から計算）", expression=_START),
        Column("end_date", "DATE", "終了日（単日なら start_date と同じ）", expression=_END),
    ),
    examples=(
        Example("無料のイベント", "SELECT event_name, date_time FROM events WHERE cost->>'is_free' = 'true'"),
        Example(
            "10月に開催されるイベント（月をまたぐ期間も含む）",
            "SELECT event_name, date_time FROM events "
            "WHERE start_date <= DATE '2025-10-31' AND end_date >= DATE '2025-10-01' ORDER BY start_date",
        ),
        Example(
            "今日開催中のイベント",
            "SELECT event_name, date_time FROM events WHERE jst_today() BETWEEN start_date AND end_date",
        ),
        Example(
            "子供向けで 2,000円以下のイベント",
            f"SELECT event_name, cost->>'amount' AS amount FROM events "
            f"WHERE target_audience LIKE '%子供%' AND {_YEN} <= 2000",
        ),
        Example(
            "土日に始まるイベント",
            "SELECT event_name, start_date, dayname(start_date) AS weekday FROM events WHERE isodow(start_date) >= 6",
        ),
        Example(
            "会場ごとの件数",
            "SELECT location->>'venue' AS venue, count(*) AS n FROM events GROUP BY venue ORDER BY n DESC",
        ),
    ),
    no_results_message="検索条件に一致するイベントが見つかりませんでした",
)
