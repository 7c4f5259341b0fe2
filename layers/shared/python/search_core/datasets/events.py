"""events.csv: the columns of the existing system, kept as TEXT, plus typed date helpers."""

from __future__ import annotations

from search_core.datasets.spec import Column, DatasetSpec, Example

# date_time is 'YYYY-MM-DD' or 'YYYY-MM-DD/YYYY-MM-DD'; a value that is neither leaves the helpers NULL.
_START = "TRY_CAST(trim(split_part(date_time, '/', 1)) AS DATE)"
_END = f"coalesce(TRY_CAST(nullif(trim(split_part(date_time, '/', 2)), '') AS DATE), {_START})"

EVENTS = DatasetSpec(
    name="events",
    title="イベント情報",
    columns=(
        Column("event_name", "TEXT", "イベント名"),
        Column("description", "TEXT", "イベントの説明"),
        Column("date_time", "TEXT", "開催日。'YYYY-MM-DD' または期間 'YYYY-MM-DD/YYYY-MM-DD'"),
        Column("location", "JSON", '{"venue": 会場名, "address": 住所}'),
        Column("capacity", "TEXT", "定員（テキスト）"),
        Column("source_url", "TEXT", "情報元の URL"),
        Column("extracted_at", "TEXT", "情報を取得した日時"),
        Column("additional_info", "TEXT", "補足情報"),
        Column("contact_info", "JSON", '{"phone": 電話番号, "email": メール}'),
        Column("cost", "JSON", '{"is_free": true/false, "amount": 金額, "notes": 備考}'),
        Column("registration_required", "TEXT", "事前申込が必要なら 'True'、不要なら NULL"),
        Column("target_audience", "JSON", '配列 例: ["家族", "子ども"]'),
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
            "会場ごとの件数",
            "SELECT location->>'venue' AS venue, count(*) AS n FROM events GROUP BY venue ORDER BY n DESC",
        ),
    ),
    no_results_message="検索条件に一致するイベントが見つかりませんでした",
)
