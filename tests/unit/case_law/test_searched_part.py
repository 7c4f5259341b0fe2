"""A decision past the bound preparation sets is searched up to it on every path, read whole, and said to be so."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from search_core.kinds.case_law.descriptions import EACH, NEAR
from search_core.kinds.case_law.limits import MAX_DOC_ID_CHARS, MAX_SEARCHED_CHARS, MAX_SEARCHED_NAME_CHARS
from search_core.kinds.case_law.service import CaseSearch
from search_core.kinds.case_law.store.build import prepare, searched_length
from search_core.settings import Settings
from tests.conftest import write_export

BOUND = 1_000
MAIN = "被告は、原告に対し、金100万円を支払え。"
# The 主文 and the first 990 characters of the reasons are searched; 不法行為 and 民法709条 lie beyond.
REASONS = "損害" + "あ" * 900 + "前半の語" + "あ" * 100 + "後半の語 不法行為 民法709条" + "い" * 200


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CaseSearch]:
    work = tmp_path_factory.mktemp("searched-part")
    rows = [
        {"doc_id": "LONG", "court": "東京地方裁判所", "date": "2024-05-01", "case_name": "損害賠償請求事件",
         "main_text": MAIN, "facts_and_reasons": REASONS},
        {"doc_id": "SHORT", "court": "東京地方裁判所", "date": "2024-04-01", "case_name": "損害賠償請求事件",
         "main_text": MAIN, "facts_and_reasons": "損害 前半の語 後半の語 不法行為 民法709条"},
    ]  # fmt: skip
    prepared = work / "cases.duckdb"
    stats = prepare(write_export(work / "cases.jsonl", rows), prepared, searched_chars=BOUND)
    assert stats.searched_in_part == 1
    search = CaseSearch(Settings(dataset_uris={"cases": str(prepared)}, cache_dir=work / "cache"))
    yield search
    search.close()


def found(cases: CaseSearch, keywords: str, **options: object) -> list[str]:
    return [hit.doc_id for hit in cases.search(keywords, 25_000, limit=20, **options).results]  # type: ignore[arg-type]


@pytest.mark.parametrize("keywords", ["後半の語", "不法行為", "709条", "民法709条 損害"])
def test_a_term_past_the_bound_finds_only_the_decision_searched_whole(cases: CaseSearch, keywords: str) -> None:
    assert found(cases, keywords) == ["SHORT"]
    assert found(cases, keywords, sort="relevance") == ["SHORT"]
    assert cases.passages("LONG", keywords, 20, 25_000, mode=NEAR).hits == 0
    if " " not in keywords:
        assert cases.passages("LONG", keywords, 20, 25_000, mode=EACH).hits == 0


@pytest.mark.parametrize("keywords", ["前半の語", "損害", "100万円", "前半の語 損害"])
def test_a_term_within_the_bound_finds_the_long_decision_on_every_path(cases: CaseSearch, keywords: str) -> None:
    assert found(cases, keywords) == ["LONG", "SHORT"]
    assert sorted(found(cases, keywords, sort="relevance")) == ["LONG", "SHORT"]
    assert cases.passages("LONG", keywords, 20, 25_000, mode=EACH).hits >= 1


def test_every_answer_showing_the_decision_says_where_searching_stops(cases: CaseSearch) -> None:
    answer = cases.search("損害", 25_000)
    long, short = answer.results
    until = long.searched_until
    assert until is not None and short.searched_until is None
    text = cases.text("LONG", 0, 25_000).text
    # It stops after the 990th character of the reasons: 前半の語 is before it, 後半の語 after
    assert text.index("前半の語") < until < text.index("後半の語")
    assert "1 件は非常に長い判決のため" in (answer.message or "")
    assert "searched_until" not in short.model_dump(exclude_none=True)
    assert cases.text("LONG", 0, 25_000).searched_until == until
    passages = cases.passages("LONG", "後半の語", 20, 25_000)
    assert passages.searched_until == until and "この判決は非常に長いため" in (passages.message or "")


def test_the_text_past_the_bound_is_read_whole(cases: CaseSearch) -> None:
    assert cases.text("LONG", 0, 25_000).text.endswith("い" * 200)


def test_the_bound_counts_characters_once_normalised() -> None:
    # ﷺ becomes 18 characters under NFKC, so 60 of them already pass a bound of 1,000
    assert searched_length("", "ﷺ" * 60, bound=BOUND) == 1_000 // 18
    assert searched_length("主文", "あ" * (BOUND - 2), bound=BOUND) is None
    assert searched_length("主文", "あ" * (BOUND - 1), bound=BOUND) == BOUND


def test_a_body_of_many_slices_is_cut_at_the_bound_without_reading_the_rest() -> None:
    body = "あ" * (MAX_SEARCHED_CHARS + 10)
    assert searched_length(body[:10], body[10:]) == MAX_SEARCHED_CHARS


# Words the cut may go through: a citation, a kanji numeral, a sum; each with the terms that read it differently
# whole and cut.
CUT_WORDS = {
    "第709条の2": ("709条", "709条の2", "第709条"),
    "十五人": ("15", "10", "15人"),
    "三百万円": ("300万円", "300万", "3"),
}


@pytest.fixture(scope="module")
def cut_everywhere(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CaseSearch]:
    """One decision for each place the cut can fall in each word of CUT_WORDS (the 主文 and the padding read as
    written, so the cut falls `depth` characters into the word)."""
    work = tmp_path_factory.mktemp("cut-everywhere")
    rows = []
    for word in CUT_WORDS:
        for depth in range(len(word) + 1):
            pad = BOUND - len("棄却する。") - depth
            rows.append({"doc_id": _cut_id(word, depth), "court": "東京地方裁判所", "date": "2024-05-01",
                         "main_text": "棄却する。", "facts_and_reasons": "あ" * pad + word + "う" * 50})  # fmt: skip
    prepared = work / "cases.duckdb"
    prepare(write_export(work / "cases.jsonl", rows), prepared, searched_chars=BOUND)
    search = CaseSearch(Settings(dataset_uris={"cases": str(prepared)}, cache_dir=work / "cache"))
    yield search
    search.close()


@pytest.mark.parametrize("word", CUT_WORDS)
def test_a_word_the_cut_goes_through_reads_alike_in_search_and_find_in_case(
    cut_everywhere: CaseSearch, word: str
) -> None:
    for term in CUT_WORDS[word]:
        holders = set(found(cut_everywhere, term))
        for depth in range(len(word) + 1):
            doc_id = _cut_id(word, depth)
            places = cut_everywhere.passages(doc_id, term, 20, 25_000).hits
            assert (doc_id in holders) == (places > 0), (term, doc_id, places)


def _cut_id(word: str, depth: int) -> str:
    """A doc_id that holds none of the words (every searched column counts)."""
    return f"W{list(CUT_WORDS).index(word)}-{depth}"


def test_a_snippet_shows_nothing_past_where_the_decision_is_searched(tmp_path: Path) -> None:
    # Given a decision found by its case name, whose text holds the same word only past the bound
    row = {"doc_id": "NAMED", "court": "東京地方裁判所", "date": "2024-05-01", "case_name": "特別な名前事件",
           "main_text": "棄却する。", "facts_and_reasons": "あ" * 2 * BOUND + "特別な名前"}  # fmt: skip
    prepare(write_export(tmp_path / "cases.jsonl", [row]), tmp_path / "cases.duckdb", searched_chars=BOUND)
    search = CaseSearch(Settings(dataset_uris={"cases": str(tmp_path / "cases.duckdb")}, cache_dir=tmp_path / "c"))
    [hit] = search.search("特別な名前", 25_000).results
    # Then its snippet is its opening, not the place past the bound, and findInCase says where it looked
    assert "特別な名前" not in hit.snippet and hit.headings[:1] == ["主文"]
    message = search.passages("NAMED", "特別な名前", 5, 25_000).message or ""
    assert f"本文のうち語を探す部分（offset {hit.searched_until:,} まで）" in message
    search.close()


def test_an_empty_answer_says_long_decisions_are_searched_in_part(cases: CaseSearch) -> None:
    answer = cases.search("どこにもない語", 25_000)
    assert "ただし非常に長い判決 1 件は先頭だけを検索しているため" in (answer.message or "")


def test_names_are_searched_up_to_their_bound_and_a_doc_id_past_the_requests_is_skipped(tmp_path: Path) -> None:
    rows = [
        {"doc_id": "N", "case_name": "あ" * MAX_SEARCHED_NAME_CHARS + "遠くの名前", "main_text": "棄却する。"},
        {"doc_id": "X" * (MAX_DOC_ID_CHARS + 1), "main_text": "棄却する。"},
        {"doc_id": "X" * MAX_DOC_ID_CHARS, "main_text": "棄却する。"},
    ]
    stats = prepare(write_export(tmp_path / "cases.jsonl", rows), tmp_path / "cases.duckdb")
    assert (stats.decisions, stats.skipped) == (2, 1)
    search = CaseSearch(Settings(dataset_uris={"cases": str(tmp_path / "cases.duckdb")}, cache_dir=tmp_path / "c"))
    assert search.search("遠くの名前", 25_000).results == []
    assert search.search("事件名:遠くの名前", 25_000).results == []
    assert [hit.doc_id for hit in search.search("棄却", 25_000).results] == ["N", "X" * MAX_DOC_ID_CHARS]
    search.close()
