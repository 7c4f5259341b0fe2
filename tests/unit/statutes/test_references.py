"""Articles and law numbers in every writing a lawyer uses, read as e-Gov keys them."""

from __future__ import annotations

import pytest

from search_core.kinds.statutes.references import ArticleRef, kanji_numeral, law_number_key


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("第七百九条", ArticleRef("709")),
        ("709条", ArticleRef("709")),
        ("７０９条", ArticleRef("709")),
        ("709", ArticleRef("709")),
        ("第27条の5", ArticleRef("27_5")),
        ("第二十七条の五", ArticleRef("27_5")),
        ("第二十七条ノ五", ArticleRef("27_5")),
        ("第23条の2の15", ArticleRef("23_2_15")),
        ("18条2項", ArticleRef("18", 2)),
        ("第十八条第二項", ArticleRef("18", 2)),
        ("4条3項2号", ArticleRef("4", 3, "2")),
        ("第一条第二項第三号の二", ArticleRef("1", 2, "3_2")),
        ("709条 1項", ArticleRef("709", 1)),
        ("附則第1条", ArticleRef("1", supplement="")),
        ("附則", ArticleRef("附則", supplement="")),
        ("附則第3項", ArticleRef("附則", 3, supplement="")),
        ("附則(平成29年法律第44号)第17条", ArticleRef("17", supplement="平成29年法律第44号")),
        ("附則（平成二九年六月二日法律第四四号）第十七条", ArticleRef("17", supplement="平成29年法律第44号")),
        ("平成29年法律第44号附則17条", ArticleRef("17", supplement="平成29年法律第44号")),
        ("第2項", ArticleRef("本則", 2)),
        ("本則", ArticleRef("本則")),
    ],
)
def test_an_article_is_read_in_every_writing(written: str, read: ArticleRef) -> None:
    assert ArticleRef.read(written) == read


@pytest.mark.parametrize("written", ["abc", "条", "第709条の", "の2条", "附則(民法)第1条", "709条709条", ""])
def test_what_names_no_article_is_none(written: str) -> None:
    assert ArticleRef.read(written) is None


def test_a_reference_is_named_back_in_the_laws_kanji_and_in_arabic_numerals() -> None:
    ref = ArticleRef("230_2", 3, "2_2")
    assert ref.written("第二百三十条の二") == "第二百三十条の二第三項第二号の二"
    assert ref.arabic == "230条の2第3項2号の2"


@pytest.mark.parametrize("number", [1, 9, 10, 11, 99, 100, 101, 415, 999, 1000, 1003, 1234, 9999])
def test_kanji_numerals_read_back_as_the_number(number: int) -> None:
    from search_core.fulltext.normalize import normalize

    assert normalize(f"第{kanji_numeral(number)}条") == f"第{number}条"


@pytest.mark.parametrize(
    ("written", "key"),
    [
        ("平成十三年法律第百三十七号", "平成13年法律第137号"),
        ("平成１３年法律第１３７号", "平成13年法律第137号"),
        ("平成二九年六月二日法律第四四号", "平成29年法律第44号"),
        ("令和元年法律第二号", "令和1年法律第2号"),
        ("昭和二十一年憲法", "昭和21年憲法"),
        ("昭和二十六年政令第三百十九号", "昭和26年政令第319号"),
    ],
)
def test_a_law_number_has_one_key_in_any_writing(written: str, key: str) -> None:
    assert law_number_key(written) == key


@pytest.mark.parametrize("written", ["民法", "平成13年", "法律第137号"])
def test_what_is_not_a_law_number_has_no_key(written: str) -> None:
    assert law_number_key(written) is None


def test_a_paragraph_numbered_past_ten_thousand_is_named_as_written() -> None:
    assert ArticleRef("1", 12_345).written("第一条") == "第一条第12345項"
