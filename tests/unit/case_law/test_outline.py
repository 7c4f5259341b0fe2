"""A decision's outline (its headings with offsets, lengths, paths and the terms' counts under each) and a part of it
read to its end, within the budget whatever the decision's length."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tooling.local import DATA_DIR

from search_core.engine.budget import BUDGET_BYTES, embedded_bytes
from search_core.errors import InvalidRequest
from search_core.kinds.case_law.service import CaseSearch
from search_core.kinds.case_law.text.headings import sections
from search_core.settings import Settings
from tests.conftest import searching_cases

LONG = "R05-0930-LONG"


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CaseSearch]:
    search = CaseSearch(Settings(sample_data_dir=DATA_DIR, cache_dir=tmp_path_factory.mktemp("cases")))
    yield search
    search.close()


def test_the_outline_counts_under_each_heading_what_find_in_case_finds(cases: CaseSearch) -> None:
    outline = cases.outline(LONG, "原告 OR 当裁判所の判断", BUDGET_BYTES)
    tops = [entry for entry in outline.headings if entry.depth == 1]
    assert [entry.heading for entry in tops] == ["主文", "事実及び理由"]
    assert (
        sum(entry.count or 0 for entry in tops) == cases.passages(LONG, "原告 OR 当裁判所の判断", 20, BUDGET_BYTES).hits
    )


def test_an_outline_too_long_for_the_budget_keeps_its_outer_levels_and_says_so(cases: CaseSearch) -> None:
    outline = cases.outline(LONG, None, BUDGET_BYTES)
    assert not outline.complete and outline.depth_shown == 3
    assert outline.message is not None and "深さ 3 の見出しは 57 件" in outline.message
    assert [entry.depth for entry in outline.headings].count(3) > 0
    assert embedded_bytes(outline.model_dump()) <= BUDGET_BYTES
    first = outline.headings[4]
    assert (first.heading, first.path, first.length) == ("第1\u3000争点1について", ["事実及び理由"], 190)


def test_a_part_is_read_to_its_end_and_paged_within_it(cases: CaseSearch) -> None:
    whole = cases.text(LONG, 0, BUDGET_BYTES, heading="第2")
    assert whole.section == ["事実及び理由", "第2\u3000争点2について"] and whole.next_offset is None
    assert whole.offset + len(whole.text) == whole.section_end
    first = cases.text(LONG, 0, 900, heading="事実及び理由")
    assert first.next_offset is not None and first.section_end == first.total_chars
    second = cases.text(LONG, first.next_offset, 900, heading="事実及び理由")
    assert second.offset == first.next_offset and second.section == ["事実及び理由"]
    with pytest.raises(InvalidRequest, match="の外です"):
        cases.text(LONG, 5, BUDGET_BYTES, heading="第2")


def test_the_last_page_of_a_part_ends_where_the_part_ends(cases: CaseSearch) -> None:
    """From the agent frame: a part's conclusion (its 小括) is at its end, and reaching it took a guessed offset."""
    last = cases.text(LONG, 0, 900, heading="事実及び理由", from_end=True)
    assert last.offset + len(last.text) == last.section_end == last.total_chars and last.next_offset is None
    assert embedded_bytes(last.model_dump()) <= 900 and last.text.startswith(last.headings[-1][:2])
    before = cases.text(LONG, 0, 900, heading="事実及び理由")
    assert before.next_offset is not None and before.next_offset < last.offset  # the part is longer than a page
    whole = cases.text(LONG, 0, BUDGET_BYTES, heading="第2", from_end=True)
    assert whole.text == cases.text(LONG, 0, BUDGET_BYTES, heading="第2").text  # a part within a page: all of it
    with pytest.raises(InvalidRequest, match="from_end と offset"):
        cases.text(LONG, 7, BUDGET_BYTES, from_end=True)


def test_the_outline_of_one_part_lists_its_headings_at_every_depth(cases: CaseSearch) -> None:
    """From the agent frame: the whole outline left out the parties' sub-headings, and findInCase was used to list
    them."""
    whole = cases.outline(LONG, None, BUDGET_BYTES)
    part = cases.outline(LONG, "慣行", BUDGET_BYTES, heading="第100")
    assert part.section == ["事実及び理由", "第100　争点100について"] and part.complete
    shown = [[*entry.path, entry.heading] for entry in part.headings]
    assert shown[1:] and all(path[:2] == part.section for path in shown)
    assert not any(entry.path[1:2] == part.section[1:] for entry in whole.headings)  # the whole outline left them out
    assert part.headings[0].count == cases.passages(LONG, "慣行", 20, BUDGET_BYTES, heading="第100").hits == 1


def test_a_hit_shows_where_each_term_is_treated_most_by_the_court(tmp_path: Path) -> None:
    """From the agent frame: a hit showed the first place and the last two, so the court's treatment of each of the
    company's three reasons in the middle of a 雇止め judgment never showed."""
    argued = "原告は勤務成績が良好であったと主張し、被告は勤務成績の不良と人員削減を理由とする。\n" * 5
    reasons = (
        "事実及び理由\n第1 当事者の主張\n"
        + argued
        + "第2 当裁判所の判断\n1 勤務成績について\n"
        + "勤務成績の不良は認められない。\n" * 2
        + "あ" * 300
        + "\n(2) 小括\n勤務成績は理由とならない。\n"
        + "え" * 300
        + "\n2 人員削減について\n人員削減の必要性は乏しい。\n"
        + "い" * 300
        + "\n3 上限条項について\n上限条項は効力を有しない。\n"
        + "う" * 300
        + "\n4 結論\n認容する。\n"
    )
    rows = [{"doc_id": "R", "main_text": "原告の請求を認容する。", "facts_and_reasons": reasons}]
    search = searching_cases(rows, tmp_path)
    found = search.search("雇止め OR 勤務成績", BUDGET_BYTES, passages="勤務成績 OR 人員削減 OR 上限条項").results[0]
    assert found.passages is not None and found.passage_hits == 14 + 7 + 2  # headings included
    assert [place.headings[-1] for place in found.passages] == [
        "第1 当事者の主張", "(2) 小括", "2 人員削減について", "3 上限条項について"
    ]  # fmt: skip  # the court's conclusion on 勤務成績 comes before the part where it occurs most
    search.close()


@pytest.mark.parametrize(
    ("line", "heading"),
    [("1.5倍の額を支払う", False), ("(1)の事実によれば", False), ("2019 年に", False), ("(1) 争点", True)],
)
def test_lines_that_only_look_like_headings_open_no_part(line: str, heading: bool) -> None:
    text = f"事実及び理由\r\n第1 請求\r\n{line}\r\n本文"
    assert (len(sections(text)[0]) == 3) is heading


def test_an_outline_of_hundreds_of_thousands_of_heading_lines_stays_within_the_budget(tmp_path: Path) -> None:
    """Given a decision of 300,000 heading lines: the outline reads the first LINES_READ_FORWARD and says so."""
    body = "".join(f"第{n % 900 + 1} 見出し\n(1) 小見出し\n" for n in range(150_000))
    search = searching_cases([{"doc_id": "HUGE", "main_text": "棄却", "facts_and_reasons": body}], tmp_path)
    outline = search.outline("HUGE", None, BUDGET_BYTES)
    assert not outline.complete and outline.message is not None and "最初の 100,000 行" in outline.message
    assert embedded_bytes(outline.model_dump()) <= BUDGET_BYTES
    search.close()


def test_a_brief_search_names_a_hundred_decisions_in_one_answer(tmp_path: Path) -> None:
    rows = [
        {"doc_id": f"D{n:03}", "court": "東京地方裁判所", "date": f"2024-01-{n % 28 + 1:02}",
         "case_name": "損害賠償請求事件", "main_text": "被告は原告に金100万円を支払え。" * 20,
         "facts_and_reasons": "不法行為に基づく損害賠償。" * 200}
        for n in range(150)
    ]  # fmt: skip
    search = searching_cases(rows, tmp_path)
    listed = search.search("損害賠償", BUDGET_BYTES, limit=100, brief=True)
    assert listed.results == [] and listed.listed is not None and len(listed.listed) == listed.count == 100
    assert listed.total == 150 and listed.more
    assert {entry.outcome for entry in listed.listed} == {"請求認容"}
    assert embedded_bytes(listed.model_dump()) <= BUDGET_BYTES
    assert len(search.search("損害賠償", BUDGET_BYTES, limit=100).results) <= 20
    with pytest.raises(InvalidRequest, match="brief では passages"):
        search.search("損害賠償", BUDGET_BYTES, brief=True, passages="不法行為")
    search.close()


def test_a_search_narrowed_to_an_outcome_finds_the_decisions_whose_main_text_states_it(tmp_path: Path) -> None:
    rows = [
        {"doc_id": "WON", "date": "2024-01-01", "main_text": "被告は、原告に対し、100万円を支払え。",
         "facts_and_reasons": "不法行為に基づく損害賠償請求である。"},
        {"doc_id": "LOST", "date": "2024-01-02", "main_text": "原告の請求を棄却する。",
         "facts_and_reasons": "不法行為に基づく損害賠償請求である。"},
        {"doc_id": "APPEAL", "date": "2024-01-03", "main_text": "本件控訴を棄却する。",
         "facts_and_reasons": "不法行為に基づく損害賠償請求の控訴である。"},
        {"doc_id": "VARIED", "date": "2024-01-04", "facts_and_reasons": "不法行為に基づく損害賠償請求の控訴である。",
         "main_text": "原判決を次のとおり変更する。被控訴人は控訴人に50万円を支払え。控訴人のその余の請求を棄却する。"},
        {"doc_id": "REVERSED", "date": "2024-01-05", "facts_and_reasons": "不法行為に基づく損害賠償請求の控訴である。",
         "main_text": "原判決を取り消す。被控訴人の請求を棄却する。"},
    ]  # fmt: skip
    search = searching_cases(rows, tmp_path)
    won = search.search("損害賠償", BUDGET_BYTES, outcome="請求認容")
    assert [hit.doc_id for hit in won.results] == ["WON"] and won.results[0].outcome.sentence == rows[0]["main_text"]
    appeal = search.search(None, BUDGET_BYTES, outcome="控訴棄却")
    assert [hit.doc_id for hit in appeal.results] == ["APPEAL"] and appeal.results[0].outcome.note
    assert search.search("損害賠償", BUDGET_BYTES, outcome="無罪").total == 0
    # From the agent frame: a list of the claims granted in part missed an appeal that changed the judgment below so
    partly = search.search(None, BUDGET_BYTES, outcome="一部認容", brief=True).listed
    assert partly is not None and [(d.doc_id, d.outcome) for d in partly] == [
        ("VARIED", "原判決取消・変更（一部認容）")
    ]
    dismissed = search.search(None, BUDGET_BYTES, outcome="請求棄却", brief=True).listed
    assert dismissed is not None and {d.doc_id for d in dismissed} == {"LOST", "REVERSED"}
    varied = search.search(None, BUDGET_BYTES, outcome="原判決取消・変更", brief=True).listed
    assert varied is not None and {d.doc_id for d in varied} == {"VARIED", "REVERSED"}
    search.close()


def test_a_term_confined_to_the_courts_reasoning_is_not_found_in_a_partys_argument(tmp_path: Path) -> None:
    argued = "事実及び理由\n第1 当事者の主張\n原告は被告に重過失があると主張する。\n第2 当裁判所の判断\n否。\n"
    held = "事実及び理由\n第1 当事者の主張\n原告の主張。\n第2 当裁判所の判断\n被告には重過失がある。\n"
    rows = [
        {"doc_id": "ARGUED", "date": "2024-01-01", "main_text": "原告の請求を棄却する。", "facts_and_reasons": argued},
        {"doc_id": "HELD", "date": "2024-01-02", "main_text": "被告は原告に支払え。", "facts_and_reasons": held},
    ]  # fmt: skip
    search = searching_cases(rows, tmp_path)
    assert {hit.doc_id for hit in search.search("重過失", BUDGET_BYTES).results} == {"ARGUED", "HELD"}
    assert [hit.doc_id for hit in search.search("判断:重過失", BUDGET_BYTES).results] == ["HELD"]
    assert search.passages("ARGUED", "判断:重過失", 5, BUDGET_BYTES).hits == 0
    assert search.passages("ARGUED", "重過失", 5, BUDGET_BYTES, heading="当事者の主張").hits == 1
    assert search.passages("ARGUED", "重過失", 5, BUDGET_BYTES, heading="当裁判所の判断").hits == 0
    search.close()


def test_find_in_case_leaves_out_the_places_whose_sentence_holds_an_excluded_term(tmp_path: Path) -> None:
    text = "事実及び理由\n原告は被告に過失があると主張する。被告に過失はない。過失を認める証拠もない。\n"
    rows = [{"doc_id": "X", "date": "2024-01-01", "main_text": "棄却する。", "facts_and_reasons": text}]
    search = searching_cases(rows, tmp_path)
    assert search.passages("X", "過失", 5, BUDGET_BYTES).hits == 3
    found = search.passages("X", "過失 -主張 -証拠", 5, BUDGET_BYTES)
    assert found.hits == 1 and [p.term for p in found.passages] == ["過失"]
    assert "被告に過失はない" in found.passages[0].text
    assert search.passages("X", "過失 被告 -主張", 5, BUDGET_BYTES, mode="sentence").hits == 1
    search.close()


def test_outline_counts_read_fields_and_exclusions_as_find_in_case_does(tmp_path: Path) -> None:
    text = (
        "事実及び理由\n第1 当事者の主張\n原告は被告に過失があると主張する。\n第2 当裁判所の判断\n被告に過失がある。\n"
    )
    rows = [{"doc_id": "X", "date": "2024-01-01", "main_text": "棄却する。", "facts_and_reasons": text}]
    search = searching_cases(rows, tmp_path)
    for keywords in ("判断:過失", "過失 -主張", "事件名:損害賠償 OR 過失"):
        counts = {e.heading: e.count for e in search.outline("X", keywords, BUDGET_BYTES).headings}
        for heading in ("当事者の主張", "当裁判所の判断"):
            part = next(count for title, count in counts.items() if heading in title)
            assert part == search.passages("X", keywords, 20, BUDGET_BYTES, heading=heading).hits, (keywords, heading)
    search.close()


def test_a_brief_list_never_cuts_a_doc_id(tmp_path: Path) -> None:
    rows = [
        {"doc_id": f"hanrei-2020-tokyo-chisai-civil-{n:04}-long-identifier", "date": "2024-01-01",
         "case_name": "損害賠償請求事件" * 15, "main_text": "棄却する。", "facts_and_reasons": "損害賠償。"}
        for n in range(100)
    ]  # fmt: skip
    search = searching_cases(rows, tmp_path)
    listed = search.search("損害賠償", BUDGET_BYTES, limit=100, brief=True)
    assert listed.listed is not None and all(d.doc_id.endswith("-long-identifier") for d in listed.listed)
    assert len(listed.listed) < 100 and listed.message is not None and "100 件のうち" in listed.message
    assert embedded_bytes(listed.model_dump()) <= BUDGET_BYTES
    search.close()


@pytest.mark.parametrize(
    "reasoning",
    ["第三　当裁判所の判断", "第3　争点（本件事故について被告に安全配慮義務違反があるか）に対する判断"],
)
def test_the_courts_reasoning_is_found_by_kanji_numbers_and_long_headings_alike(tmp_path: Path, reasoning: str) -> None:
    text = f"第一　当事者の主張\r\n原告は過失を主張する。\r\n{reasoning}\r\n被告に過失がある。\r\n"
    rows = [{"doc_id": "X", "date": "2024-01-01", "main_text": "支払え。", "facts_and_reasons": text}]
    search = searching_cases(rows, tmp_path)
    assert search.search("判断:過失", BUDGET_BYTES).total == 1
    assert search.passages("X", "判断:過失", 5, BUDGET_BYTES).hits == 1
    outline = search.outline("X", None, BUDGET_BYTES)
    assert outline.complete and [entry.depth for entry in outline.headings] == [1, 1, 2, 2]
    search.close()


def test_a_conviction_filter_holds_suspended_sentences_and_bracketed_parts_are_headings(tmp_path: Path) -> None:
    reasons = "【罪となるべき事実】\n被告人は窃取した。\n【量刑の理由】\n被害は回復された。\n"
    rows = [
        {"doc_id": "SUSPENDED", "date": "2024-01-01", "facts_and_reasons": reasons,
         "main_text": "被告人を懲役２年に処する。この裁判確定の日から４年間その刑の全部の執行を猶予する。"},
        {"doc_id": "SERVED", "date": "2024-01-02", "main_text": "被告人を懲役１年に処する。",
         "facts_and_reasons": reasons},
    ]  # fmt: skip
    search = searching_cases(rows, tmp_path)
    assert {hit.doc_id for hit in search.search(None, BUDGET_BYTES, outcome="有罪").results} == {"SUSPENDED", "SERVED"}
    assert [hit.doc_id for hit in search.search(None, BUDGET_BYTES, outcome="有罪（執行猶予）").results] == [
        "SUSPENDED"
    ]
    part = search.text("SERVED", 0, BUDGET_BYTES, heading="量刑の理由")
    assert part.text.startswith("【量刑の理由】") and part.next_offset is None
    search.close()


def test_an_outline_cut_keeps_the_headings_where_the_keywords_are(tmp_path: Path) -> None:
    """Given a long early part of many small headings and, last, the part that holds the terms."""
    early = "".join(f"（{n}）瑕疵{n}\n軽微な瑕疵である。\n" for n in range(1, 400))
    text = f"第1 瑕疵の一覧\n{early}第2 損害\n（1）修補費用\n（2）小括\n損害の額は2532万円である。\n"
    rows = [{"doc_id": "X", "date": "2024-01-01", "main_text": "棄却する。", "facts_and_reasons": text}]
    search = searching_cases(rows, tmp_path)
    outline = search.outline("X", "2532万円", BUDGET_BYTES)
    assert not outline.complete and "（2）小括" in [entry.heading for entry in outline.headings]
    assert embedded_bytes(outline.model_dump()) <= BUDGET_BYTES
    search.close()


def test_a_heading_naming_several_parts_reads_the_first_and_names_the_others(cases: CaseSearch) -> None:
    page = cases.text(LONG, 0, BUDGET_BYTES, heading="当裁判所の判断")
    assert page.section is not None and page.also_named is not None and len(page.also_named) == 5
    assert all("当裁判所の判断" in path for path in page.also_named)
    assert cases.text(LONG, 0, BUDGET_BYTES, heading="第120").also_named is None


def test_a_heading_naming_a_partys_argument_and_the_courts_answer_reads_the_courts(tmp_path: Path) -> None:
    text = (
        "第1 当事者の主張\n1 争点2について\n原告は過失を主張する。\n第2 当裁判所の判断\n1 争点2について\n過失はない。\n"
    )
    rows = [{"doc_id": "X", "date": "2024-01-01", "main_text": "棄却する。", "facts_and_reasons": text}]
    search = searching_cases(rows, tmp_path)
    page = search.text("X", 0, BUDGET_BYTES, heading="争点2")
    assert page.text.startswith("1 争点2について\n過失はない。") and page.also_named == [
        "事実及び理由 > 第1 当事者の主張 > 1 争点2について"
    ]
    assert search.passages("X", "過失", 5, BUDGET_BYTES, heading="争点2").hits == 1
    search.close()


def test_a_hits_places_pass_over_compounds_and_quoted_arguments_for_the_issue_that_holds_the_term(
    tmp_path: Path,
) -> None:
    """From the agent frame: passages=懸念 showed 貸倒懸念債権 four times, a prosecutor's argument quoted in the court's
    part as its finding, and another issue's 小括 where the term occurs once."""
    filler = "\n" + "あ" * 200 + "\n"
    reasons = (
        "事実及び理由\n第1 当事者の主張\n原告は、被告が懸念を表明しなかったと主張する。" + filler
        + "第2 当裁判所の判断\n1 認定事実\n本件債権は貸倒懸念債権に区分された。" + filler
        + "2 争点1について\n(1) 原告の主張\n原告は、懸念は一般的な感想であると主張する。懸念。懸念。" + filler
        + "(2) 検討\n被告は取締役会の前に懸念を示した。" + filler
        + "(3) 小括\n被告の懸念の表明は具体的であった。" + filler
        + "3 争点2について\n(1) 小括\n損害は懸念とは無関係に生じた。" + filler
    )  # fmt: skip
    rows = [{"doc_id": "R", "main_text": "原告の請求を棄却する。", "facts_and_reasons": reasons}]
    search = searching_cases(rows, tmp_path)
    found = search.search("懸念", BUDGET_BYTES, passages="懸念").results[0]
    assert found.passages is not None and found.passage_hits == 8
    assert [place.headings[-1] for place in found.passages] == ["第1 当事者の主張", "(2) 検討", "(3) 小括", "(1) 小括"]
    search.close()
