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
# A slot may run past midnight (close < open): it then covers the evening of its own day and the
# early hours of the next, so the previous day's slots are checked for that tail. `ts` may be a TIMESTAMP or text
# such as '2025-10-05 10:00': the agent writes both.
_AT = "CAST(ts AS TIMESTAMP)"
IS_OPEN_AT = Macro(
    signature="is_open_at(hours, ts)",
    body=(
        f"len(list_filter({_slots_on(_AT)}, lambda s: "
        f"(s.open <= s.close AND s.open <= strftime({_AT}, '%H:%M') AND strftime({_AT}, '%H:%M') < s.close) "
        f"OR (s.close < s.open AND strftime({_AT}, '%H:%M') >= s.open))) > 0 "
        f"OR len(list_filter({_slots_on(f'{_AT} - INTERVAL 1 DAY')}, lambda s: "
        f"s.close < s.open AND strftime({_AT}, '%H:%M') < s.close)) > 0"
    ),
    description=(
        "hours（opening_hours 列）で日時 ts（日本時間。TIMESTAMP '2025-10-05 10:00' または '2025-10-05 10:00'）に"
        "営業中なら true。曜日と時刻だけの質問は、その曜日の日付で書く（2025-10-05 は日曜、10-06 は月曜 … 10-11 は"
        "土曜）。曜日のない時刻は 7 曜日それぞれの日付を OR で調べる。深夜 0 時台は前日の営業時間にも含まれる。"
        "開店時刻ちょうどは営業中、閉店時刻ちょうどは営業外（close 23:30 の店は 23:29 まで）"
    ),
    example="SELECT store_name FROM stores WHERE is_open_at(opening_hours, TIMESTAMP '2025-10-05 10:00')",
)
IS_OPEN_NOW = Macro(
    signature="is_open_now(hours)",
    body="is_open_at(hours, jst_now())",
    description="今（日本時間）営業中なら true",
    example="SELECT store_name FROM stores WHERE is_open_now(opening_hours)",
)

STORES = DatasetSpec(
    name="stores",
    title="店舗・施設情報",
    columns=(
        Column("store_name", "TEXT", "店舗名"),
        Column("category", "TEXT", "カテゴリ", examples=("カフェ", "レストラン", "雑貨", "マーケット")),
        Column("description", "TEXT", "店舗の説明"),
        Column(
            "location",
            "JSON",
            '{"building": 建物名, "floor": 階, "address": 住所}',
            examples=("麻布台ヒルズ 森JPタワー", "1F", "B1"),
        ),
        Column(
            "opening_hours",
            "JSON",
            '{"monday": [{"open": "10:00", "close": "20:00"}], ..., "sunday": [...]}。[] は定休日。'
            "時刻は日本時間の HH:MM、close が open より前なら翌日にまたがる。営業中かは is_open_at / is_open_now で",
        ),
        Column("contact_info", "JSON", '{"phone": 電話番号, "email": メール}'),
        Column("website", "TEXT", "ウェブサイトの URL"),
        Column("target_audience", "JSON", "対象者の配列", examples=("家族", "大人", "子供", "一般")),
        Column("facilities", "JSON", "設備の配列", examples=("駐車場", "キッズスペース", "Wi-Fi")),
        Column(
            "price_range",
            "TEXT",
            "価格帯: '¥'（〜1,000円）、'¥¥'（1,000〜3,000円）、'¥¥¥'（3,000〜10,000円）、'¥¥¥¥'（10,000円〜）。"
            "安い順は length(price_range)",
            examples=("¥", "¥¥", "¥¥¥", "¥¥¥¥"),
        ),
        Column("source_url", "TEXT", "情報元の URL"),
        Column("extracted_at", "TEXT", "情報を取得した日時（ISO 8601、+09:00）"),
    ),
    macros=(*JST_MACROS, IS_OPEN_AT, IS_OPEN_NOW),
    examples=(
        Example(
            "麻布台ヒルズマーケットの営業時間",
            "SELECT store_name, opening_hours FROM stores WHERE store_name LIKE '%麻布台ヒルズマーケット%'",
        ),
        Example(
            "駐車場があり家族向けの店舗",
            "SELECT store_name, facilities FROM stores "
            "WHERE facilities LIKE '%駐車場%' AND target_audience LIKE '%家族%'",
        ),
        Example(
            "今営業中のカフェ", "SELECT store_name FROM stores WHERE category = 'カフェ' AND is_open_now(opening_hours)"
        ),
        Example(
            "日曜 10 時に開いているカフェ",
            "SELECT store_name FROM stores WHERE category = 'カフェ' "
            "AND is_open_at(opening_hours, TIMESTAMP '2025-10-05 10:00')",
        ),
        Example(
            "手頃な（¥ か ¥¥ の）レストラン",
            "SELECT store_name, price_range FROM stores WHERE category = 'レストラン' AND price_range IN ('¥', '¥¥')",
        ),
        Example(
            "日曜が定休日の店舗",
            "SELECT store_name FROM stores WHERE json_array_length(opening_hours->'sunday') = 0",
        ),
    ),
    no_results_message="検索条件に一致する店舗が見つかりませんでした",
)
