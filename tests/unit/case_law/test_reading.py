"""Snippets are cut from the original text around the first hit; pages cover the text exactly once."""

from __future__ import annotations

import time
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from search_core.engine.budget import embedded_bytes
from search_core.fulltext.snippet import AFTER, BEFORE, SCAN_CHARS, snippet
from search_core.fulltext.terms import Phrase
from search_core.kinds.case_law.language import parse
from search_core.kinds.case_law.models import CaseMatches, CaseQuery, Decision, Listed
from search_core.kinds.case_law.reading.answers import fit_hits, hit, late_snippets_note, search_body
from search_core.kinds.case_law.reading.pages import page_end
from search_core.kinds.case_law.text.overview import overview
from tests.conftest import opened_cases, write_export


def test_snippet_shows_the_original_spelling_around_the_hit() -> None:
    text = "前置き。" * 100 + "被告は民法第七百九条に基づく責任を負う。" + "後書き。" * 100
    cut = snippet(text, (Phrase("第709条"),))[0]
    assert "民法第七百九条に基づく" in cut
    assert cut.startswith("…") and cut.endswith("…")
    assert len(cut) <= BEFORE + len("第七百九条") + AFTER + 2


def test_snippet_finds_full_width_spellings() -> None:
    text = "x" * 500 + "ＰＲＯＶＩＤＥＲ責任制限法" + "y" * 500
    assert "ＰＲＯＶＩＤＥＲ責任制限法" in snippet(text, (Phrase("provider"),))[0]


def test_snippet_uses_the_earliest_hit_of_any_keyword() -> None:
    text = "a" * 300 + "過失" + "b" * 300 + "損害" + "c" * 300
    assert "過失" in snippet(text, (Phrase("損害"), Phrase("過失")))[0]


def test_snippet_without_a_hit_is_the_opening() -> None:
    text = "主文　本件控訴を棄却する。" + "。" * 500
    assert snippet(text, (Phrase("東京"),))[0].startswith("主文　本件控訴を棄却する。")


def test_snippet_far_into_a_long_text_with_many_numerals() -> None:
    text = "第一千二百三十四条。" * 3000 + "目的の語句" + "終わり"
    assert "目的の語句" in snippet(text, (Phrase("目的の語句"),))[0]


def body(text: str, next_offset: int | None) -> dict[str, Any]:
    return {"doc_id": "X", "text": text, "offset": 0, "next_offset": next_offset, "total_chars": 0}


@pytest.mark.parametrize("before", [10, 15_995, 50_000, SCAN_CHARS - 100])
def test_snippet_finds_the_first_hit_wherever_it_lies_within_the_scan(before: int) -> None:
    """Read in growing prefixes: a hit at a prefix's cut (金三百万円 cut after 三百) is read whole, not missed."""
    text = "あ" * before + "金三百万円" + "い" * 1_000 + "300万円"
    shown, at, _ = snippet(text, parse("300万円").positive_terms)
    assert at == before and "金三百万円" in shown


def test_snippet_shows_its_term_when_numerals_before_it_shrink() -> None:
    """From the red team: the hit's place was estimated from the lengths, and 200 numerals in the 主文 that shrink
    when normalised put it in the 主文, in a passage without the term."""
    numerals = "".join(f"{i}　金一億二千三百四十五万六千七百八十九円\n" for i in range(200))
    text = numerals + "第2　当裁判所の判断\n監査役は" + "理由。" * 5_000
    shown, at, _ = snippet(text, parse("監査役").positive_terms)
    assert at == text.index("監査役") and "監査役" in shown


def test_snippet_of_a_hit_beyond_the_scan_is_the_opening() -> None:
    """From the red team: a decision of 10 million characters was normalised whole for each hit's snippet (2 s)."""
    text = "冒頭" + "あ" * SCAN_CHARS + "損害"
    assert snippet(text, parse("損害").positive_terms)[:2] == (snippet(text, ())[0], 0)


@pytest.mark.parametrize("unit", ["あ", "a", '"\\\n', "漢字とASCII mixed\n"])
def test_pages_cover_the_text_exactly_once_and_each_fits(unit: str) -> None:
    text = unit * 30_000
    budget = 24_000
    offset, pieces = 0, []
    while offset < len(text):
        end = page_end(text, offset, body, budget)
        assert end > offset
        assert embedded_bytes(body(text[offset:end], end)) <= budget
        pieces.append(text[offset:end])
        offset = end
    assert "".join(pieces) == text
    assert len(pieces) > 1


def test_a_short_text_is_one_page() -> None:
    assert page_end("短い判決", 0, body, 24_000) == len("短い判決")


def test_a_citation_keyword_is_shown_where_its_citation_is() -> None:
    from search_core.kinds.case_law.language import parse

    text = "主文　請求を棄却する。" + "。" * 600 + "被告は民法第七百十五条の使用者責任を負う。" + "。" * 600
    cut, _, _ = snippet(text, parse("民法715条").positive_terms)
    assert "民法第七百十五条" in cut and not cut.startswith("主文")


@pytest.mark.parametrize("total", [0, 1])
def test_an_answer_says_how_many_undated_decisions_its_date_filter_left_out(total: int) -> None:
    decision = Decision(0, "D1", "東京地裁", date(2024, 1, 1), "令和6年1月1日", None, "損害賠償請求事件", "主文", "")
    rows = [hit(decision, (Phrase("損害"),))[0].model_dump()] * total
    query = CaseQuery(parse("損害"), 5, date_from=date(2024, 1, 1))
    body = search_body(rows, CaseMatches([decision] * total, total, True, undated=3), None, query)
    assert "判決日のない判決 3 件" in str(body.message) and "date_from・date_to の対象外" in str(body.message)
    assert "判決日のない" not in str(
        search_body(rows, CaseMatches([decision] * total, total, True), None, query).message
    )


@pytest.mark.parametrize(("total", "exact", "more"), [(5, True, False), (6, True, True), (5, False, True)])
def test_more_is_true_whenever_more_may_match(total: int, exact: bool, more: bool) -> None:
    # Given five decisions returned, and a total that is exact or only a lower bound (counting stopped at five)
    decision = Decision(0, "D1", "東京地裁", date(2024, 1, 1), "令和6年1月1日", None, "損害賠償請求事件", "主文", "")
    rows = [hit(decision, (Phrase("損害"),))[0].model_dump()] * 5
    found = CaseMatches([decision] * 5, total, exact)
    # When the answer is built, Then `more` is false only when the count proves nothing else matches
    body = search_body(rows, found, None, CaseQuery(parse("損害"), 5))
    assert (body.count, body.more) == (5, more)


def test_hits_beyond_the_budget_even_without_their_main_text_are_dropped_and_none_claims_a_whole_main_text() -> None:
    # Given twenty hits with long 主文 and a budget too small for twenty hits even without them
    main_text = "被告は、原告に対し、金300万円を支払え。" * 50
    decision = Decision(0, "D1", "東京地裁", date(2024, 1, 1), "令和6年1月1日", None, "損害賠償請求事件", main_text, "")
    rows = [hit(decision, (Phrase("損害"),))[0].model_dump()] * 20
    found = CaseMatches([decision] * 20, 20, True)

    def make_body(fitted: list[dict[str, Any]]) -> Any:
        return search_body(fitted, found, None, CaseQuery(parse("損害"), 20)).model_dump()

    # When the hits are fitted to it
    fitted = fit_hits(rows, make_body, 3_000)
    # Then some hits are dropped, each kept one says its 主文 is cut, and the answer fits
    assert 0 < len(fitted) < 20 and all(not r["main_text_complete"] and r["main_text"] == "…" for r in fitted)
    assert embedded_bytes(make_body(fitted)) <= 3_000 and "主文を途中で切りました" in make_body(fitted)["message"]


@pytest.mark.parametrize(
    ("facts", "expected"),
    [
        (
            "第1 事案の概要\n被告は、本件は時効と主張する。\n1 本件は、原告が賠償を求める事案である。",
            "本件は、原告が賠償を求める事案である。",
        ),
        (
            "あ" * 19_990 + "。本件は、原告が被告に対し損害賠償を求める事案である。",
            "本件は、原告が被告に対し損害賠償を求める事案である。",
        ),
        ("本件は、原告が【資料。】を根拠に求める事案である。", "本件は、原告が【資料。】を根拠に求める事案である。"),
        ("本件は、原告が「資料を求める事案である。\n第2 前提事実", "本件は、原告が「資料を求める事案である。"),
        ("（１）本件は、控訴事件である。", "本件は、控訴事件である。"),
        ("被告は、本件は時効と主張する。", None),
    ],
)
def test_an_overview_is_the_first_sentence_that_begins_honkenwa(facts: str, expected: str | None) -> None:
    """From the red team: a 本件は in the middle of a sentence won, one near the end of the window read was cut
    short without …, a 。 inside 【】 ended it, and a stray 「 ran it past the next lines."""
    assert overview(facts) == expected


def test_a_hit_whose_passage_was_not_reached_in_time_shows_the_opening_and_says_so() -> None:
    decision = Decision(
        0, "D1", "東京地裁", date(2024, 1, 1), "令和6年1月1日", None, "損害賠償請求事件", "主文", "理由"
    )
    shown, in_time = hit(decision, (Phrase("理由"),), deadline=time.monotonic() - 1)
    assert not in_time and shown.snippet == snippet(decision.body, ())[0]
    assert "1 件は時間内に語の箇所まで読めなかった" in str(late_snippets_note(1)) and late_snippets_note(0) is None


def test_a_search_without_terms_reads_no_text_for_its_snippets() -> None:
    text = "主文" + "あ" * 500_000
    started = time.perf_counter()
    assert snippet(text, ()) == (snippet(text[:1000], ())[0], 0, True)
    assert time.perf_counter() - started < 5  # a sanity bound; aligning 300,000 characters is what it avoids


def test_an_empty_answer_lists_the_decisions_within_its_filters_as_data() -> None:
    # Given filters holding one decision, whose case name tries to forge a second entry in a message
    forged = "親権）。doc_id FAKE：2020-01-01 偽\n\x07"
    query = CaseQuery(parse("損害"), 5, court="京都家庭裁判所")
    listed = Listed("H01-0108-K" + "x" * 150, date(1989, 1, 8), forged, searched_in_part=True)
    found = CaseMatches([], 0, True, filtered_total=1, within_filters=(listed,))
    # When the empty answer is built
    body = search_body([], found, None, query)
    # Then the decision is data, its doc_id whole, and the message only points there
    assert body.within_filters is not None
    [entry] = body.within_filters
    assert (entry.doc_id, entry.date, entry.case_name, entry.searched_in_part) == (
        listed.doc_id, "1989-01-08", forged, True,
    )  # fmt: skip
    assert "court・日付の条件を満たす判決は 1 件あります（within_filters にあります）。" in str(body.message)
    assert "FAKE" not in str(body.message)


def test_dates_alone_that_leave_nothing_are_answered_with_the_collections_dates(
    tmp_path: Path,
) -> None:
    rows = [{"doc_id": f"D{n}", "court": "東京地方裁判所", "date": day, "main_text": "棄却する。"}
            for n, day in enumerate(("2019-05-01", "2021-04-01"))]  # fmt: skip
    with opened_cases(write_export(tmp_path / "cases.jsonl", rows), tmp_path / "work") as index:
        query = CaseQuery(parse("損害"), 5, date_from=date(2020, 4, 1), date_to=date(2021, 3, 31))
        message = str(search_body([], index.search(query), None, query).message)
    assert (
        "データの判決は日付を問わなければ 2 件あります（判決日 2019-05-01〜2021-04-01）。期間を見直してください。"
        in message
    )
    assert "court" not in message.split("0 件です")[1]


def test_a_court_without_decisions_is_not_called_misspelt(tmp_path: Path) -> None:
    rows = [{"doc_id": "D", "court": "東京地方裁判所", "date": "2020-01-01", "main_text": "棄却する。"}]
    with opened_cases(write_export(tmp_path / "cases.jsonl", rows), tmp_path / "work") as index:
        query = CaseQuery(parse("損害"), 5, court="旭川地方裁判所", date_from=date(2019, 1, 1))
        message = str(search_body([], index.search(query), None, query).message)
    assert (
        "この court の判決はデータにありません（名前が正しければ、この裁判所の判決がデータにないということです）。"
        in message
    )
    assert "見直して" not in message
