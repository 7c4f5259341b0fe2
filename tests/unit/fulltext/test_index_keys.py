"""The key index of citations and sums: a decision holds a term's keys whenever it holds the term (exactly when, for a
sum), so searching by keys finds what reading every text finds; a file prepared before the keys is not served."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from search_core.errors import DataUnavailable
from search_core.fulltext.amounts import Amount, amount_keys
from search_core.fulltext.citations import Citation, citation_keys
from search_core.fulltext.normalize import normalize
from search_core.fulltext.places import occurrences, places_by_part
from search_core.kinds.case_law.language import parse
from search_core.kinds.case_law.models import CaseQuery
from search_core.kinds.case_law.store.build import FORMAT_VERSION, prepare, search_text
from search_core.kinds.case_law.store.database import open_cases
from search_core.kinds.case_law.store.index import CaseIndex
from search_core.storage.cache import LocalCopy
from tests.conftest import TEST_LIMITS, opened_cases, write_export

# What decisions write around citations and sums, in pieces that meet in every way a text can put them together;
# the keywords are pieces too, so that texts often hold them.
CITATION_PIECES = ("民法", "会社法", "法", "同法", "第", "709", "7", "1", "2", "23", "0", "条", "項", "号", "の", "、",
                   "及び", " ", "(", ")", "(ワ)", "(平成29年法律第44号)", "\n")  # fmt: skip
AMOUNT_PIECES = ("金", "3", "300", "0", "00", "000", ",000", ",", ".", "万", "億", "円", "銭", "50", "1", "対し", " ")
CITATIONS = ("709条", "第709条", "民法709条", "709条1項", "709条の2", "709条の2第1項", "会社法第1条", "1項第2号",
             "法709条及び1条", "709条の23", "民法第709条第1項", "2号", "0709条", "709条第1項の2",
             "1条2項3号", "民法第709条の2", "法第1条", "民法第第709条", "民法第1条2項", "法第1条2項",
             "民法709条1項3号")  # fmt: skip
# The citations of one unit or two in a row, perhaps after two characters, which the keys find exactly.
ARTICLES_ALONE = ("709条", "第709条", "709条1項", "709条の2", "709条の2第1項", "1項第2号", "709条の23", "2号",
                  "0709条", "709条第1項の2")  # fmt: skip
# The same after a law's name: found exactly by their keys where no 同法 may stand for the law.
LAW_NAMED = ("民法709条", "民法第709条の2", "民法709条1項", "民法第709条第1項", "民法第1条2項")
AMOUNTS = ("300万円", "金3,000,000円", "3000000円", "1億300万円", "1,000円", "0円", "5万円", "10,000円", "1億円")


def texts_of(pieces: tuple[str, ...]) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(pieces), max_size=14).map("".join)


@settings(max_examples=1500, deadline=None)
@given(texts_of(CITATION_PIECES + CITATIONS), st.sampled_from(CITATIONS))
def test_a_decision_holding_a_citation_holds_all_its_keys(text: str, keyword: str) -> None:
    """All the keys of the keyword, or of the keyword after 同法 (同法709条 for 民法709条)."""
    citation = Citation.read(keyword)
    assert citation is not None
    held = citation_keys(text)
    by_same_law = citation.same_law is not None and set(citation.same_law.keys) <= held
    assert not citation.holds(text) or set(citation.keys) <= held or by_same_law


@settings(max_examples=1500, deadline=None)
@given(texts_of(CITATION_PIECES + CITATIONS), st.sampled_from(ARTICLES_ALONE))
def test_a_decision_holds_an_article_or_two_cited_exactly_when_it_holds_their_keys(text: str, keyword: str) -> None:
    citation = Citation.read(keyword)
    assert citation is not None and citation.exact_by_index
    assert citation.holds(text) == (set(citation.keys) <= citation_keys(text))


@settings(max_examples=1500, deadline=None)
@given(texts_of(CITATION_PIECES + CITATIONS), st.sampled_from(LAW_NAMED))
def test_a_law_named_citation_is_found_exactly_by_its_keys_where_no_same_law_stands(text: str, keyword: str) -> None:
    citation = Citation.read(keyword)
    assert citation is not None and not citation.exact_by_index
    without_same_law = text.replace("同法", "")
    assert citation.holds(without_same_law) == (set(citation.keys) <= citation_keys(without_same_law))


@pytest.mark.parametrize("keyword", sorted(set(CITATIONS) - set(ARTICLES_ALONE)))
def test_a_citation_with_more_words_or_three_articles_is_read_on_the_text(keyword: str) -> None:
    citation = Citation.read(keyword)
    assert citation is not None and not citation.exact_by_index


@settings(max_examples=1500, deadline=None)
@given(texts_of(AMOUNT_PIECES + AMOUNTS), st.sampled_from(AMOUNTS))
def test_a_decision_holds_the_key_of_a_sum_exactly_when_it_holds_the_sum(text: str, keyword: str) -> None:
    amount = Amount.read(keyword)
    assert amount is not None
    assert (f"yen:{amount.value}" in amount_keys(text)) == amount.holds(text)


@settings(max_examples=500, deadline=None)
@given(texts_of(AMOUNT_PIECES + AMOUNTS))
def test_every_sum_a_text_is_keyed_by_is_one_it_holds(text: str) -> None:
    for key in amount_keys(text):
        amount = Amount.read(f"{key.removeprefix('yen:')}円")
        assert amount is not None and amount.holds(text)


DECISIONS = [
    ("a", "2024-03-01", "損害賠償請求事件", "被告は、原告に対し、金300万円を支払え。", "民法第七百九条第一項による。"),
    ("b", "2023-06-01", "損害賠償請求事件", "本件控訴を棄却する。", "民法709条の2に基づき、金3,000,000円を請求する。"),
    ("c", "2022-01-01", "貸金返還請求事件", "被告は、原告に対し、金三百万円を支払え。", "刑法709条1項、1,300万円。"),
    ("d", "2021-01-01", "株主代表訴訟事件", "請求を棄却する。", "会社法第423条第1項、同法423条の2。3百万円。"),
    ("e", "2020-01-01", "不当利得返還請求事件", "被告は金1億5千万円を支払え。", "民法703条、709条、1709条。"),
    (
        "f",
        "2019-01-01",
        "損害賠償請求事件",
        "棄却する。",
        "民法（平成２９年法律第４４号による改正前のもの）４１５条の損害賠償",
    ),
    (
        "g",
        "2018-01-01",
        "損害賠償請求事件",
        "棄却する。",
        "民法（明治29年法律第89号）第709条に基づく。令和元年（ワ）1号",
    ),
]
KEYWORDS = ("民法709条1項", "709条", "709条の2", "会社法第423条", "423条の2", "300万円", "主文:300万円",
            "1億5000万円", "150,000,000円", "1300万円", "民法709条 300万円", "709条1項", "-300万円 709条",
            "300万円 OR 423条", "1億円以上", "300万円以上", "300万円超", "300万円未満", "1300万円以下",
            "主文:300万円以上", "-1億円以上 300万円以上", "415条", "415条 損害賠償", "民法415条", "民法第709条",
            "709条 損害賠償", "1号", "第1号", "44号")  # fmt: skip


@pytest.fixture(scope="module")
def decisions(tmp_path_factory: pytest.TempPathFactory) -> Path:
    columns = ("doc_id", "date", "case_name", "main_text", "facts_and_reasons")
    rows = (dict(zip(columns, row, strict=True)) for row in DECISIONS)
    return write_export(tmp_path_factory.mktemp("keys") / "cases.jsonl", rows)


@pytest.fixture(scope="module")
def index(decisions: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[CaseIndex]:
    with opened_cases(decisions, tmp_path_factory.mktemp("work")) as opened:
        yield opened


def scanned(keywords: str) -> list[str]:
    """The decisions satisfying `keywords`, newest first, by reading each one's text."""
    expression = parse(keywords)
    found = []
    for doc_id, _, case_name, main_text, facts in DECISIONS:
        row = {"doc_id": doc_id, "court": None, "date": None, "case_number": None, "case_name": case_name,
               "main_text": main_text, "facts_and_reasons": facts}  # fmt: skip
        parts = {"主文": normalize(main_text), "事件名": normalize(case_name)}
        if expression.holds_in(search_text(row), None, parts.__getitem__):
            found.append(doc_id)
    return found


@pytest.mark.parametrize("keywords", KEYWORDS)
def test_searching_by_keys_finds_what_reading_every_text_finds(index: CaseIndex, keywords: str) -> None:
    matches = index.search(CaseQuery(parse(keywords), limit=10))
    assert [d.doc_id for d in matches.decisions] == scanned(keywords)
    assert (matches.total, matches.total_exact) == (len(scanned(keywords)), True)


@pytest.mark.parametrize(("keywords", "doc_id"), [("415条", "f"), ("415条 損害賠償", "f"), ("民法709条", "g")])
def test_an_article_after_a_note_on_its_law_is_found_by_every_path(
    index: CaseIndex, keywords: str, doc_id: str
) -> None:
    """From the red team: 民法（…による改正前のもの）415条 was found by 415条 alone (its keys), not by 415条 損害賠償,
    by relevance or by findInCase (the text), and 民法（明治29年法律第89号）第709条 by nothing."""
    expression = parse(keywords)
    newest = index.search(CaseQuery(expression, limit=10))
    ranked = index.search(CaseQuery(expression, limit=10, by_relevance=True))
    decision = index.decision(doc_id)
    assert decision is not None
    places = occurrences(decision.full_text, expression.positive_terms, 5, regions=decision.regions)
    shown = places_by_part(decision.full_text, expression.positive_terms, [], decision.regions).total
    assert doc_id in [d.doc_id for d in newest.decisions] and doc_id in [d.doc_id for d in ranked.decisions]
    assert places.total == shown == len(expression.positive_terms)


def test_a_sum_is_found_in_every_writing_including_mixed_numerals(index: CaseIndex) -> None:
    assert scanned("300万円") == ["a", "b", "c", "d"]


def test_a_file_prepared_in_an_older_format_is_not_served(decisions: Path, tmp_path: Path) -> None:
    old = tmp_path / "cases.duckdb"
    prepare(decisions, old)
    with duckdb.connect(str(old)) as con:
        con.execute("UPDATE meta SET format_version = ?", [str(int(FORMAT_VERSION) - 1)])
    with pytest.raises(DataUnavailable, match="make upload-data"):
        open_cases(LocalCopy(old, "old"), TEST_LIMITS, tmp_path / "work")


def test_a_raw_file_prepared_by_older_code_is_prepared_again(decisions: Path, tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    stale = work / "cases-v4-0123456789abcdef.duckdb"
    stale.write_bytes(b"prepared by older code")
    with opened_cases(decisions, work) as opened:
        found = opened.search(CaseQuery(parse("300万円"), limit=10))
        assert [d.doc_id for d in found.decisions] == ["a", "b", "c", "d"]
    assert not stale.exists()
