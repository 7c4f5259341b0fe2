"""stores.csv: shops and facilities, with a macro that answers "open now?" in Japan time."""

from __future__ import annotations

from search_core.datasets.clock import JST_MACROS
from search_core.datasets.spec import Column, DatasetSpec, Example, Macro

_SLOTS = '[{"open": "VARCHAR", "close": "VARCHAR"}]'


def _slots_on(day: str) -> str:
    """The opening slots of one weekday as a list of structs (empty when closed or unknown)."""
    return f"coalesce(from_json(json_extract(hours, '$.' || lower(dayname({day}))), '{_SLOTS}'), [])"


# A slot may run past midnight (close < open): it then covers the evening of its own day and the
# early hours of the next, so the previous day's slots are checked for that tail.
IS_OPEN_AT = Macro(
    signature="is_open_at(hours, ts)",
    body=(
        f"len(list_filter({_slots_on('ts')}, lambda s: "
        "(s.open <= s.close AND s.open <= strftime(ts, '%H:%M') AND strftime(ts, '%H:%M') < s.close) "
        "OR (s.close < s.open AND strftime(ts, '%H:%M') >= s.open))) > 0 "
        f"OR len(list_filter({_slots_on('ts - INTERVAL 1 DAY')}, lambda s: "
        "s.close < s.open AND strftime(ts, '%H:%M') < s.close)) > 0"
    ),
    description="opening_hours（hours）で時刻 ts（日本時間の TIMESTAMP）に営業中なら true",
)
IS_OPEN_NOW = Macro(
    signature="is_open_now(hours)",
    body="is_open_at(hours, jst_now())",
    description="今（日本時間）営業中なら true。例: WHERE is_open_now(opening_hours)",
)

STORES = DatasetSpec(
    name="stores",
    title="店舗・施設情報",
    columns=(
        Column("store_name", "TEXT", "店舗名"),
        Column("category", "TEXT", "カテゴリ（例: カフェ, レストラン, 雑貨, マーケット）"),
        Column("description", "TEXT", "店舗の説明"),
        Column("location", "JSON", '{"building": 建物名, "floor": 階, "address": 住所}'),
        Column(
            "opening_hours",
            "JSON",
            '{"monday": [{"open": "10:00", "close": "20:00"}], ..., "sunday": [...]}。[] は定休日。'
            "時刻は日本時間の HH:MM、close が open より前なら翌日にまたがる",
        ),
        Column("contact_info", "JSON", '{"phone": 電話番号, "email": メール}'),
        Column("website", "TEXT", "ウェブサイトの URL"),
        Column("target_audience", "JSON", '配列 例: ["ファミリー", "ビジネス"]'),
        Column("facilities", "JSON", '配列 例: ["駐車場", "キッズスペース", "Wi-Fi"]'),
        Column("price_range", "TEXT", "価格帯（例: ¥1,000〜¥2,000）"),
        Column("source_url", "TEXT", "情報元の URL"),
        Column("extracted_at", "TEXT", "情報を取得した日時"),
    ),
    macros=(*JST_MACROS, IS_OPEN_AT, IS_OPEN_NOW),
    examples=(
        Example(
            "麻布台ヒルズマーケットの営業時間",
            "SELECT store_name, opening_hours FROM stores WHERE store_name LIKE '%麻布台ヒルズマーケット%'",
        ),
        Example(
            "駐車場がありファミリー向けの店舗",
            "SELECT store_name, facilities FROM stores "
            "WHERE facilities LIKE '%駐車場%' AND target_audience LIKE '%ファミリー%'",
        ),
        Example(
            "今営業中のカフェ", "SELECT store_name FROM stores WHERE category = 'カフェ' AND is_open_now(opening_hours)"
        ),
        Example(
            "日曜が定休日の店舗",
            "SELECT store_name FROM stores WHERE json_array_length(opening_hours->'sunday') = 0",
        ),
    ),
    no_results_message="検索条件に一致する店舗が見つかりませんでした",
)
