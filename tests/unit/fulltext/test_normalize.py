"""Normal forms: width, case and numerals folded so that every writing of a word meets."""

from __future__ import annotations

import pytest

from search_core.fulltext.normalize import kanji_number, normalize, split_keywords


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
