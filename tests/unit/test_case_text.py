"""Normal forms, dates and courts: the rules that make messy case-law data searchable."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pyroaring import BitMap

from search_core.fulltext.dates import parse_decision_date
from search_core.fulltext.grams import loaded, stored
from search_core.fulltext.normalize import kanji_number, normalize, split_keywords
from search_core.fulltext.packed import StoredTexts, packed, searched_utf8, unpacked
from search_core.kinds.case_law.text.courts import canonical_court


@pytest.mark.parametrize("spelling", ["ＰＲＯＶＩＤＥＲ", "Provider", "provider", "PROVIDER"])
def test_width_and_case_fold_to_one_word(spelling: str) -> None:
    assert normalize(spelling) == "provider"


@pytest.mark.parametrize(
    ("kanji", "arabic"),
    [("第七百九条", "第709条"), ("第七〇九条", "第709条"), ("第十条", "第10条"), ("第二十一条", "第21条"),
     ("金一億二千万円", "金1億2000万円"), ("金三百万円", "金300万円"), ("令和七年", "令和7年"),
     ("第７０９条", "第709条")],
)  # fmt: skip
def test_kanji_and_arabic_numerals_meet(kanji: str, arabic: str) -> None:
    assert normalize(kanji) == normalize(arabic)


@pytest.mark.parametrize(
    ("mixed", "written"),
    [("3百万円", "300万円"), ("1億5千万円", "1億5000万円"), ("一億5千万円", "1億5000万円"), ("3千5百万円", "3500万円"),
     ("2千円", "2000円"), ("金1千300万円", "金1300万円"), ("第1千3条", "第1003条")],
)  # fmt: skip
def test_an_arabic_digit_before_a_kanji_unit_counts_it(mixed: str, written: str) -> None:
    assert normalize(mixed) == written


@pytest.mark.parametrize("plain", ["300万円", "1億5000万円", "2024年", "第709条"])
def test_arabic_numbers_without_a_kanji_unit_stay_as_written(plain: str) -> None:
    assert normalize(plain) == plain


def test_a_lone_man_is_a_word_not_a_number() -> None:
    assert normalize("万一") == "万1"


@pytest.mark.parametrize(
    ("numeral", "value"), [("一", 1), ("十", 10), ("十一", 11), ("百", 100), ("千九百八十九", 1989), ("二〇二五", 2025)]
)
def test_kanji_numbers(numeral: str, value: int) -> None:
    assert kanji_number(numeral) == value


def test_keywords_split_on_ascii_and_full_width_spaces() -> None:
    assert split_keywords("損害賠償\u3000民法 第709条\t過失") == ["損害賠償", "民法", "第709条", "過失"]


def test_blank_keywords_are_empty() -> None:
    assert split_keywords(" \u3000 ") == []


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


@pytest.mark.parametrize(
    ("short", "full"),
    [("東京地裁", "東京地方裁判所"), ("大阪高裁", "大阪高等裁判所"), ("札幌家裁", "札幌家庭裁判所"),
     ("名古屋簡裁", "名古屋簡易裁判所"), ("最高裁", "最高裁判所"), ("知財高裁", "知的財産高等裁判所")],
)  # fmt: skip
def test_court_abbreviations_expand_both_ways(short: str, full: str) -> None:
    assert canonical_court(short) == canonical_court(full) == full


def test_full_names_are_not_expanded_twice() -> None:
    assert canonical_court("最高裁判所第二小法廷") == "最高裁判所第2小法廷"
    assert canonical_court("知的財産高等裁判所") == "知的財産高等裁判所"
    assert canonical_court("横浜地方裁判所川崎支部") == "横浜地方裁判所川崎支部"


TEXT = st.text(alphabet=st.characters(codec="utf-8"))  # every character a decision can hold (no lone surrogate)


@given(TEXT, st.one_of(st.none(), TEXT), st.one_of(st.none(), TEXT))
def test_stored_texts_come_back_as_they_were(searched: str, main_text: str | None, facts: str | None) -> None:
    # Given any texts (NUL, empty, absent and astral characters included), When stored and read back, Then each is
    # itself: an empty text is not confused with an absent one, and no text runs into the next
    frame = packed(searched, main_text, facts)
    assert unpacked(frame) == StoredTexts(searched, main_text, facts)
    assert searched_utf8(frame) == searched.encode()


@given(st.sets(st.integers(0, 300_000), max_size=2000))
def test_a_stored_set_of_decisions_comes_back_whole(decisions: set[int]) -> None:
    assert set(loaded(stored(BitMap(decisions)))) == decisions
