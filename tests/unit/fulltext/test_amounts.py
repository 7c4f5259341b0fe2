"""A keyword that is a sum in yen finds that sum in every writing decisions use, and never a larger number that
contains it (fulltext/amounts.py)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from search_core.fulltext.amounts import Amount, AmountRange, amount_keys, sums_read, written_sums
from search_core.fulltext.citations import Citation
from search_core.fulltext.dates import parse_decision_date
from search_core.fulltext.normalize import normalize
from search_core.fulltext.places import occurrences
from search_core.fulltext.snippet import snippet
from search_core.fulltext.terms import DateSpan, Phrase, Term
from search_core.kinds.case_law.language import parse
from search_core.kinds.case_law.models import CaseQuery
from search_core.kinds.case_law.store.build import search_text
from search_core.kinds.case_law.store.exports import read_decisions
from search_core.kinds.case_law.store.index import CaseIndex
from tests.conftest import opened_cases, write_export

THREE_MILLION = [
    "金三百万円",
    "金３００万円",
    "金3,000,000円",
    "300万円",
    "3000000円",
    "金　３，０００，０００円",
    "三〇〇万円",
]
LARGER_THAN_THREE_MILLION = ["1,300万円", "金三千三百万円", "13,000,000円", "2300万円", "1億300万円", "１３００万円"]

# doc_id: the sentence it writes the sum in (dated newest first in this order).
CORPUS = {
    "KANJI": "被告は、原告に対し、金三百万円を支払え。",
    "FULL-WIDTH": "被告は，原告に対し，金３００万円を支払え。",
    "COMMAS": "金3,000,000円及びこれに対する遅延損害金を支払え。",
    "PLAIN": "損害額は3000000円と認める。",
    "LARGER-COMMAS": "金1,300万円を支払え。",
    "LARGER-KANJI": "金三千三百万円を支払え。",
    "LARGER-PLAIN": "金13,000,000円を支払え。",
    "LARGER-OKU": "金1億300万円を支払え。",
    "OKU": "金一億二千万円を支払え。",
    "OKU-COMMAS": "金120,000,000円を支払え。",
    "MAN": "慰謝料5万5,000円を認める。",
    "MAN-COMMAS": "慰謝料55,000円と15,000円を認める。",
}
THREE_MILLION_DOCS = {"KANJI", "FULL-WIDTH", "COMMAS", "PLAIN"}


def term_of(keyword: str) -> Term:
    (term,) = parse(keyword).positive_terms
    return term


def amount(keyword: str) -> Amount:
    read = Amount.read(normalize(keyword))
    assert read is not None
    return read


@pytest.mark.parametrize("keyword", ["300万円", "金三百万円", "3,000,000円", "３００万円", "3000000円"])
@pytest.mark.parametrize("written", THREE_MILLION)
def test_every_writing_of_a_sum_finds_every_other(keyword: str, written: str) -> None:
    assert amount(keyword).holds(normalize(f"被告は{written}を支払え。"))


@pytest.mark.parametrize("keyword", ["300万円", "3,000,000円"])
@pytest.mark.parametrize("written", LARGER_THAN_THREE_MILLION)
def test_a_larger_number_containing_the_sum_is_never_found(keyword: str, written: str) -> None:
    assert not amount(keyword).holds(normalize(f"被告は{written}を支払え。"))


@pytest.mark.parametrize(
    ("keyword", "same"),
    [("1億2000万円", ["120,000,000円", "一億二千万円", "1億2,000万円", "金120000000円"]),
     ("5万5000円", ["55,000円", "五万五千円", "5万5,000円", "金５５０００円"])],
)  # fmt: skip
def test_sums_written_with_oku_and_man_are_the_sums_written_in_digits(keyword: str, same: list[str]) -> None:
    assert all(amount(keyword).holds(normalize(written)) for written in same)
    assert not amount(keyword).holds(normalize("1" + same[0]))


def test_a_sum_after_a_japanese_comma_is_whole_but_after_a_digit_and_comma_is_not() -> None:
    # A reading comma written ， is , once normalised: after a word it ends the word, after a digit it groups digits.
    assert amount("300万円").holds(normalize("原告に対し，300万円を"))
    assert not amount("300万円").holds(normalize("原告に対し，1，300万円を"))


def test_a_sum_followed_by_sen_is_a_larger_sum() -> None:
    assert not amount("1万2345円").holds("金1万2345円67銭")


@pytest.mark.parametrize(
    ("keyword", "kind"),
    [("300万円", Amount), ("金三百万円", Amount), ("令和元年", DateSpan), ("民法709条", Citation), ("300万", Phrase),
     ("300万0000円", Phrase), ("300万円以上", AmountRange), ("300万以上", Phrase)],
)  # fmt: skip
def test_only_a_keyword_that_is_wholly_a_sum_in_yen_is_an_amount(keyword: str, kind: type) -> None:
    assert type(term_of(keyword)) is kind


def test_a_number_without_yen_stays_a_phrase_found_as_written() -> None:
    assert term_of("300万").holds(normalize("金1,300万円"))


def test_a_span_covers_the_sum_as_written_with_its_kin() -> None:
    text = normalize("被告は金３００万円と3,000,000円と金 300万円を支払え。1,300万円は別。")
    spans = list(amount("300万円").spans(text))
    assert [text[start:end] for start, end in spans] == ["金300万円", "3,000,000円", "300万円"]
    assert amount("300万円").count_in(text) == len(spans)


def test_the_keyword_is_named_as_written() -> None:
    assert term_of("金３００万円").text == "金300万円"


def test_a_passage_and_a_snippet_show_the_sum_as_the_decision_writes_it() -> None:
    full = "前置き。" * 50 + "被告は、原告に対し、金三百万円を支払え。" + "後書き。" * 50
    terms = parse("3,000,000円").positive_terms
    found = occurrences(full, terms, 5)
    assert [full[o.start : o.end] for o in found.first] == ["金三百万円"] and found.total == 1
    shown, position, _ = snippet(full, terms)
    assert "金三百万円" in shown and full[position:].startswith("金三百万円")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    rows = [
        {"doc_id": doc_id, "court": "東京地方裁判所", "date": f"2024-12-{31 - number:02d}", "case_number": None,
         "case_name": "損害賠償請求事件", "main_text": sentence, "facts_and_reasons": "理由は別紙のとおり。"}
        for number, (doc_id, sentence) in enumerate(CORPUS.items())
    ]  # fmt: skip
    return write_export(tmp_path_factory.mktemp("amounts") / "cases.jsonl", rows)


@pytest.fixture(scope="module")
def index(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[CaseIndex]:
    with opened_cases(corpus, tmp_path_factory.mktemp("prepared")) as opened:
        yield opened


def found(index: CaseIndex, keywords: str) -> set[str]:
    return {decision.doc_id for decision in index.search(CaseQuery(parse(keywords), len(CORPUS))).decisions}


@pytest.mark.parametrize("keyword", ["300万円", "金三百万円", "3,000,000円", "３００万円"])
def test_a_search_for_a_sum_finds_the_decisions_writing_it_in_any_form_and_no_larger_sum(
    index: CaseIndex, keyword: str
) -> None:
    assert found(index, keyword) == THREE_MILLION_DOCS


@pytest.mark.parametrize(
    "keywords",
    ["300万円", "1億2000万円", "120,000,000円", "5万5000円", "15,000円", "300万円 支払え", "300万円 OR 5万5000円",
     "支払え -300万円", "1300万円", "300万", "13,000,000円 OR 1億300万円"],
)  # fmt: skip
def test_the_index_finds_what_a_scan_of_every_text_finds(corpus: Path, index: CaseIndex, keywords: str) -> None:
    # The bench's reference: every decision's searched text checked with the same exact test, no index.
    expression = parse(keywords)
    scanned = {
        row["doc_id"]
        for row in read_decisions(corpus)
        if expression.holds_in(search_text(row), parse_decision_date(row["date"]))
    }
    assert scanned and found(index, keywords) == scanned


# Writings of a sum as a decision may write it, before normalising: the writings of amounts.py are not used here.
_KANJI_DIGITS = "〇一二三四五六七八九"
# normalize.py leaves a longer kanji numeral as written (九兆七千六百五十六億… is no sum a reader writes).
_LONGEST_KANJI_NUMERAL = 24
_KANJI_POSITIONAL = str.maketrans("0123456789", _KANJI_DIGITS)
_FULL_WIDTH = str.maketrans("0123456789,", "０１２３４５６７８９，")


def _parts(value: int) -> list[tuple[int, str]]:
    """The value's parts before 兆, 億 and 万 and the rest, zero parts left out (value below 10^16)."""
    parts = [
        (value // 10**12, "兆"),
        (value // 10**8 % 10**4, "億"),
        (value // 10**4 % 10**4, "万"),
        (value % 10**4, ""),
    ]
    return [(number, unit) for number, unit in parts if number]


def _kanji(number: int) -> str:
    """1 to 9999 in kanji with 千, 百 and 十 (三千三百, 十五)."""
    digits = zip(f"{number:04d}", ("千", "百", "十", ""), strict=True)
    return "".join(("" if d == "1" and unit else _KANJI_DIGITS[int(d)]) + unit for d, unit in digits if d != "0")


@st.composite
def written(draw: st.DrawFn, value: int) -> str:
    style = draw(st.sampled_from(["units", "commas", "plain", "kanji", "positional kanji", "formal", "decimal"]))
    kanji = "".join(_kanji(n) + unit for n, unit in _parts(value))
    decimals = _decimal_writings(value)
    if style == "formal" and len(kanji) <= _LONGEST_KANJI_NUMERAL:
        number = kanji.translate(_FORMAL)
    elif style == "decimal" and decimals:
        number = draw(st.sampled_from(decimals))
    elif style == "units":
        number = "".join((f"{n:,}" if draw(st.booleans()) else str(n)) + unit for n, unit in _parts(value))
    elif style == "kanji" and len(kanji) <= _LONGEST_KANJI_NUMERAL:
        number = kanji
    elif style.endswith("kanji"):
        number = "".join(str(n).translate(_KANJI_POSITIONAL) + unit for n, unit in _parts(value))
    else:
        number = f"{value:,}" if style == "commas" else str(value)
    if draw(st.booleans()):
        number = number.translate(_FULL_WIDTH)
    return draw(st.sampled_from(["", "金", "金　"])) + number + "円"


_FORMAL = str.maketrans("一二三十万", "壱弐参拾萬")


def _decimal_writings(value: int) -> list[str]:
    """The value as a decimal of 万, 億 or 兆 with one to four decimals and a whole part below 10,000 (0.03億)."""
    found = []
    for size, unit in ((10**12, "兆"), (10**8, "億"), (10**4, "万")):
        if value % size and value * 10**4 % size == 0 and value // size < 10**4:
            found.append(f"{value / size:.4f}".rstrip("0") + unit)
    return found


_VALUES = st.one_of(st.integers(1, 10**6), st.integers(1, 10**4).map(lambda n: n * 10**4), st.integers(1, 10**16 - 1))


@st.composite
def others(draw: st.DrawFn, value: int) -> int:
    """Any sum, or one whose writing holds the value's: a digit before it, or a larger part before its own."""
    # 万, 億 or 兆 before its parts; past 1兆, more digits before its 兆 part
    unit = next((size for size in (10**4, 10**8, 10**12) if size > value), 10 ** len(str(value)))
    containing = st.one_of(
        st.integers(1, 9).map(lambda digit: int(f"{digit}{value}")),
        st.integers(1, 9999).map(lambda larger: value + larger * unit),
    )
    return draw(st.one_of(_VALUES, containing.filter(lambda other: value < other < 10**16)))


@settings(max_examples=400, deadline=None)
@given(st.data(), _VALUES)
def test_a_sum_holds_exactly_where_one_of_the_written_sums_is_its_value(data: st.DataObject, value: int) -> None:
    # Given sums written in any form, some of them the value, among others holding its digits
    sums = data.draw(st.lists(st.one_of(st.just(value), others(value)), max_size=5))
    pieces = [data.draw(written(each)) for each in sums]
    text = normalize("".join(data.draw(st.sampled_from(["、", "及び", " ", "，", "を"])) + p for p in pieces))
    # When the value is searched for, written in any form
    term = Amount.read(normalize(data.draw(written(value))).replace(" ", ""))  # a keyword holds no space
    # Then it holds exactly when one of the sums is the value, once for each
    assert term is not None
    assert term.holds(text) == (value in sums)
    assert term.count_in(text) == len(list(term.spans(text))) == sums.count(value)
    assert term.may_hold_in(text.encode()) or value not in sums


@settings(max_examples=400, deadline=None)
@given(
    values=st.lists(st.integers(1, 10**10), min_size=0, max_size=4),
    bound=st.integers(1, 10**10),
    relation=st.sampled_from(["以上", "以下", "超", "未満", "を超える"]),
)
def test_a_range_holds_exactly_where_a_written_sum_lies_in_it(values: list[int], bound: int, relation: str) -> None:
    """1億円以上 and its kind: a text holds the range when one of its sums, read as Amount reads them, lies in it."""
    text = "、".join(f"被告は金{value:,}円を支払え" for value in values)
    term = AmountRange.read(f"{bound}円{relation}")
    assert term is not None
    inside = {
        "以上": bound.__le__,
        "以下": bound.__ge__,
        "超": bound.__lt__,
        "を超える": bound.__lt__,
        "未満": bound.__gt__,
    }
    assert term.holds(normalize(text)) == any(inside[relation](value) for value in values)
    assert term.count_in(normalize(text)) == sum(inside[relation](value) for value in values)


@pytest.mark.parametrize(
    ("written", "same", "other"),
    [
        ("金参百萬円", "3,000,000円", "金参拾萬円"),  # formal numerals (大字) in a sum
        ("金壱億弐千万円", "1.2億円", "1億円"),
        ("0.03億円", "金三百万円", "0.3億円"),  # a decimal of a unit
        ("1.5億円", "150,000,000円", "1億5,000円"),
    ],
)
def test_formal_numerals_and_decimals_of_a_unit_write_the_sum_they_mean(written: str, same: str, other: str) -> None:
    """From the red team: 参/萬 and 0.03億円 were not read as sums, so 300万円 did not find them."""
    amount = Amount.read(normalize(written))
    assert amount is not None and amount.holds(normalize(same)) and not amount.holds(normalize(other))
    assert amount_keys(normalize(f"被告は{written}を支払え")) == {f"yen:{amount.value}"}


def test_formal_numerals_outside_a_sum_stay_words() -> None:
    """From the red team: after 金 too (賃金参考資料 became 賃金3考資料, so 参考資料 missed it)."""
    assert normalize("参加人は拾得物を参照した") == "参加人は拾得物を参照した"
    assert normalize("賃金参考資料と現金拾得物") == "賃金参考資料と現金拾得物"


def test_a_sum_after_a_digit_and_a_japanese_comma_is_part_of_a_larger_sum() -> None:
    """From the red team: 金1、300万円 (13 million, its thousands marked 、) matched 300万円; then 1300万円 did not
    find it; and 金一、〇〇〇、〇〇〇円 (kanji digits, 、 between thousands) was 1、0、0円."""
    three_million = Amount.read("300万円")
    assert three_million is not None and not three_million.holds(normalize("被告は金1、300万円を支払え"))
    assert three_million.holds(normalize("原告に対し、300万円を支払え"))
    assert amount_keys(normalize("金1、300万円")) == {"yen:13000000"}
    assert amount_keys(normalize("金一、〇〇〇、〇〇〇円と金五、〇〇〇万円")) == {"yen:1000000", "yen:50000000"}
    assert amount_keys(normalize("1、2、3の各項")) == set() and normalize("1、2、3") == "1、2、3"


def test_arabic_digits_after_a_kanji_unit_are_its_last_places() -> None:
    """From the red team: 金1千300万円 read as 1000300万円, so 1300万円 did not find it."""
    thirteen_million = amount("1300万円")
    assert thirteen_million.holds(normalize("被告は金1千300万円を支払え")) and thirteen_million.holds(
        normalize("金1千3百万円")
    )
    assert amount_keys(normalize("金1千300万円と金2億3千5万円と千50円")) == {
        "yen:13000000",
        "yen:230050000",
        "yen:1050",
    }
    assert not amount("300万円").holds(normalize("金1千300万円"))


@pytest.mark.parametrize("vague", ["二、三百万円", "二三百万円", "四五十万円", "幾百万円", "二、三万円"])
def test_two_numbers_side_by_side_are_no_sum(vague: str) -> None:
    """From the red team: 二、三百万円 (two or three million) read as 2,300万円, 二三百万円 as 2300万円."""
    assert amount_keys(normalize(f"損害は{vague}程度である")) == set()
    assert not any(amount(keyword).holds(normalize(vague)) for keyword in ("2300万円", "300万円", "450万円", "100万円"))


@pytest.mark.parametrize(
    ("text", "held", "not_held"),
    [("被告は唯一、100万円を支払った", "100万円", "1100万円"), ("万一、300万円を超える損害", "300万円", "1300万円"),
     ("再三、300万円の支払を求めた", "300万円", "3300万円")],
)  # fmt: skip
def test_a_sum_after_a_word_ending_in_a_kanji_digit_and_a_comma_stands_alone(
    text: str, held: str, not_held: str
) -> None:
    """From the red team: 、 after 唯一, 万一 or 再三 was read as a thousands comma (1,100万円, or no sum)."""
    assert amount(held).holds(normalize(text)) and not amount(not_held).holds(normalize(text))


@pytest.mark.parametrize(
    ("written", "value"),
    [("金參拾萬円", 300_000), ("金貳千三百万円", 23_000_000), ("金壹萬圓", 10_000), ("金弍百円", 200)],
)
def test_old_forms_of_formal_numerals_and_of_yen_write_the_sum_they_mean(written: str, value: int) -> None:
    """From the red team: 參, 貳 and 壹 were not read, so 金參拾萬円 was found by 10万円, and 圓 was no 円."""
    assert amount_keys(normalize(f"被告は{written}を支払え")) == {f"yen:{value}"}


def test_a_formal_numeral_after_a_kanji_word_is_that_word() -> None:
    """From the red team: 北陸一円 (all over Hokuriku) read as 北61円."""
    assert normalize("北陸一円に店舗を展開し、大陸一円") == "北陸1円に店舗を展開し、大陸1円"


def test_a_part_written_with_its_four_places_is_the_sum_it_writes() -> None:
    """From the agent frame: 主文：1億円以上 missed a judgment ordering 金1億0200万円."""
    assert amount_keys(normalize("被告は、原告に対し、金1億0200万円を支払え。")) == {"yen:102000000"}
    over = AmountRange.read("1億円以上")
    assert over is not None and over.holds(normalize("金1億0200万円")) and amount("1億200万円").holds("1億0200万円")
    assert not amount("200万円").holds("1億0200万円")


def test_thousands_of_yen_are_the_sum_they_write() -> None:
    """From the red team: 3,000千円 normalised to 3,1000円, so it matched a decision writing 金3,1000円."""
    three_million = Amount.read(normalize("3,000千円"))
    assert three_million is not None and three_million.value == 3_000_000
    assert three_million.holds(normalize("被告は金3,000千円を支払え")) and three_million.holds(normalize("金300万円"))
    assert not three_million.holds(normalize("金3,1000円")) and normalize("1.5千円") == "1.5千円"


def test_a_vague_sum_is_no_sum() -> None:
    """From the red team: 100万円 and 10万円 matched 数百万円 and 数十万円."""
    for keyword, vague in (("100万円", "原告の損害は数百万円に及ぶ"), ("10万円", "数十万円"), ("百万円", "何百万円")):
        amount = Amount.read(normalize(keyword))
        assert amount is not None and not amount.holds(normalize(vague)), (keyword, vague)
    assert amount_keys(normalize("数百万円と金百万円")) == {"yen:1000000"}


def test_many_ranges_read_a_decision_once() -> None:
    """From the red team: twenty ranges (1億円以上 … 20億円以上) read a long decision twenty times, past the deadline
    that is looked at between decisions."""
    text = normalize("損害" + ",1" * 100_000)
    expression = parse(" OR ".join(f"{n}億円以上" for n in range(1, 21)))
    before = sums_read.cache_info().misses
    assert not expression.holds_in(text)
    assert sums_read.cache_info().misses == before + 1


def test_sums_are_read_only_as_far_as_asked_and_every_reader_sees_each_once() -> None:
    """From the red team: every sum of 10 million characters of 1円 was read (47 s) before the deadline was looked
    at; and findInCase interleaves the ranges it merges."""
    text = "1円" * 2_000_000
    first = written_sums(text)
    assert next(first) == (0, 2, 1) and sums_read(text).read_so_far == 1  # one asked, one read
    second = written_sums(text)
    pairs = list(islice(zip(first, second, strict=False), 3))
    assert pairs == [((2, 4, 1), (0, 2, 1)), ((4, 6, 1), (2, 4, 1)), ((6, 8, 1), (4, 6, 1))]
    assert sums_read(text).read_so_far == 4
