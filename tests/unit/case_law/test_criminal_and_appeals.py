"""What the agent frame found in criminal judgments and appeals: a bracketed part (【事実認定の補足説明】) holds its
第1, 第2 … and is the court's own reasoning for 判断:, a partial acquittal is said beside a conviction, and an
appeal's hit quotes what the courts below decided."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from search_core.engine.budget import BUDGET_BYTES
from search_core.kinds.case_law.descriptions import PARTLY_ACQUITTED_NOTE
from search_core.kinds.case_law.service import CaseSearch
from search_core.kinds.case_law.text.headings import brackets_open_parts, heading_offset, heading_path
from search_core.kinds.case_law.text.overview import decided_below
from tests.conftest import searching_cases

CRIMINAL = (
    "理由\n【罪となるべき事実】\n被告人は、Ｖを刃物で刺した。\n【事実認定の補足説明】\n第１　争点\n"
    "検察官は、被告人がＶの攻撃を自ら招いたと主張する。\n第２　正当防衛の成否\n１　自招侵害について\n"
    "被告人の発言は、Ｖの攻撃を招いた不正の行為とはいえない。\n【一部無罪の理由】\n第１　公訴事実\n"
    "被告人は住居に侵入した。\n第２　当裁判所の判断\n犯人と認めるには合理的な疑いが残る。\n【量刑の理由】\n"
    "過剰防衛である。\n（求刑　懲役８年）\n"
)
APPEAL = (
    "第１　控訴の趣旨\n原判決を取り消す。\n第２　事案の概要\n１　本件は、特許権侵害の差止めを求める事案である。"
    "原審（東京地方裁判所令和２年（ワ）第１２３４５号）は、控訴人の請求をいずれも棄却したため、控訴人が控訴した。\n"
    "第３　当裁判所の判断\n原判決は、本件明細書を正解しないものである。\n"
)


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CaseSearch]:
    rows = [
        {"doc_id": "G", "main_text": "被告人を懲役４年に処する。\n住居侵入の点については、被告人は無罪。",
         "facts_and_reasons": CRIMINAL},
        {"doc_id": "P", "case_name": "特許権侵害差止等請求控訴事件", "main_text": "本件控訴を棄却する。",
         "facts_and_reasons": APPEAL},
        {"doc_id": "F", "main_text": "原告の請求を棄却する。",
         "facts_and_reasons": "第１　請求\n（１）　前訴の経過\n第１審は、Ａの請求を棄却した。原審は棄却した。\n"},
    ]  # fmt: skip
    work = tmp_path_factory.mktemp("criminal")
    search = searching_cases(rows, work)
    yield search
    search.close()


def test_a_bracketed_part_holds_the_numbered_parts_after_it() -> None:
    at = CRIMINAL.index("犯人と認める")
    assert heading_path(CRIMINAL, at) == ["理由", "【一部無罪の理由】", "第２　当裁判所の判断"]


@pytest.mark.parametrize(
    "quoted",
    [
        "【実施例】【００３５】表１に示すとおり、中間層の比率は",
        "【００３５】",
        "【請求項１】食品包装用の多層フィルムであって",
    ],
)
def test_a_bracket_in_a_civil_judgment_or_a_paragraph_number_opens_no_part(quoted: str) -> None:
    """From the agent frame: a patent description quoted in 第2 (【実施例】【0035】…) was read as a part holding every
    later one, 第4 当裁判所の判断 included."""
    text = f"事実及び理由\n第２　事案の概要\n{quoted}\n第４　当裁判所の判断\n１　均等\n本文"
    assert heading_path(text, text.index("本文")) == ["事実及び理由", "第４　当裁判所の判断", "１　均等"]
    criminal = f"理由\n【事実認定の補足説明】\n第１　争点\n{quoted}\n本文"
    assert heading_path(criminal, criminal.index("本文")) == ["理由", "【事実認定の補足説明】", "第１　争点"]
    bracketed = f"事実及び理由\n【事案の概要】\n概要\n【当裁判所の判断】\n１　充足\n{quoted}\n本文"
    assert heading_path(bracketed, bracketed.index("本文")) == ["事実及び理由", "【当裁判所の判断】", "１　充足"]


def test_a_term_confined_to_the_courts_reasoning_is_found_in_a_criminal_judgments_explanation(
    cases: CaseSearch,
) -> None:
    """From the agent frame: 判断:挑発 found nothing in a criminal judgment, whose reasoning is under
    【事実認定の補足説明】, and the agent read that the court never dealt with it."""
    found = cases.passages("G", "判断:招いた", 20, BUDGET_BYTES)
    assert found.hits == 2 and [place.headings[1] for place in found.passages] == ["【事実認定の補足説明】"]
    assert found.passages[0].text.startswith("…検察官は、")  # the passage opens with its sentence
    assert cases.passages("G", "判断:刺した", 20, BUDGET_BYTES).hits == 0  # 罪となるべき事実 is no reasoning
    assert [hit.doc_id for hit in cases.search("判断:過剰防衛", BUDGET_BYTES).results] == ["G"]


def test_a_conviction_that_also_acquits_says_so_beside_what_the_prosecution_asked_for(cases: CaseSearch) -> None:
    """From the agent frame: an agent reading outcome.kind alone missed the acquittal, and searched for the 求刑."""
    found = cases.search("住居", BUDGET_BYTES).results[0]
    assert (found.outcome.kind, found.outcome.note) == ("有罪", PARTLY_ACQUITTED_NOTE)
    assert found.outcome.requested == "懲役８年"
    civil = next(hit for hit in cases.search("原審", BUDGET_BYTES).results if hit.doc_id == "P")
    assert civil.outcome.requested is None


def test_an_appeals_hit_quotes_what_the_court_below_decided(cases: CaseSearch) -> None:
    """From the agent frame: the first instance's result is in no appellate 主文, and agents read the text for it."""
    hits = {hit.doc_id: hit for hit in cases.search("原審", BUDGET_BYTES).results}
    below = hits["P"].decided_below
    assert below is not None and [sentence.text for sentence in below] == [
        "原審（東京地方裁判所令和２年（ワ）第１２３４５号）は、控訴人の請求をいずれも棄却したため、控訴人が控訴した。"
    ]
    full = cases.text("P", 0, BUDGET_BYTES).text
    assert full[below[0].offset :].startswith("原審（") and below[0].headings[:2] == [
        "事実及び理由",
        "第２　事案の概要",
    ]
    assert hits["F"].decided_below is None  # 原審は棄却した where no sentence begins with it: a line does
    assert "decided_below" not in hits["F"].model_dump(exclude_none=True)


def test_finding_nothing_in_a_part_names_the_part_not_the_decision(cases: CaseSearch) -> None:
    """From the agent frame: findInCase confined to 小括 said the whole decision held no 均等."""
    found = cases.passages("G", "刺した", 20, BUDGET_BYTES, heading="第２")
    assert found.hits == 0 and found.section == ["理由", "【事実認定の補足説明】", "第２　正当防衛の成否"]
    assert found.also_named == ["理由 > 【一部無罪の理由】 > 第２　当裁判所の判断"]
    assert found.message is not None and "第２　正当防衛の成否」の部分" in found.message
    assert "この判決の本文" not in found.message and "also_named" in found.message


def test_a_last_page_ends_where_its_part_ends_whatever_the_budget(tmp_path: Path) -> None:
    """From the agent frame: from_end measured its page with the headings where the part ends, and a page opening
    in a deeper part ended short of it."""
    title = "長い題名が続く" * 4
    deep = f"１　{title}\n（１）　{title}\nア　{title}\n（ア）　{title}\nａ　{title}\n" + "い" * 3000 + "\n"
    body = "第１　当裁判所の判断\n" + deep + "２　結論\n" + "う" * 50 + "\n"
    rows = [{"doc_id": "L", "main_text": "棄却する。", "facts_and_reasons": body}]
    search = searching_cases(rows, tmp_path)
    for budget in range(1500, 6000, 211):
        last = search.text("L", 0, budget, heading="第１", from_end=True)
        assert last.next_offset is None and last.offset + len(last.text) == last.section_end, budget
    search.close()


def test_a_decision_opening_thousands_of_sentences_on_the_court_below_reads_a_few() -> None:
    """Each sentence that opens 原審は、 is read to its end (up to 1,200 characters, a 。 in brackets no end): 3,400
    of them took 0.34 s a hit, so only the first few are read."""
    assert decided_below("原審は、（。" * 3_400 + "原審は、請求を棄却した。") == []
    assert decided_below("原審は、（。" * 20 + "\n原審は、請求を棄却した。") == [(121, "原審は、請求を棄却した。")]


def test_a_kanji_numbered_part_is_named_by_its_number_in_any_writing() -> None:
    """From the red team: 第3, 第三の一 and 第3 > 1 > (1) named no part of a judgment numbered 第一, 一, （一）."""
    text = "事実及び理由\n第一　請求\n本文\n第三　当裁判所の判断\n一　争点\n（一）　検討\nここを読む\n"
    wanted = ("第3", "第三の一", "第3 > 1 > (1)", "第３の１の（１）")
    assert [text[heading_offset(text, name) or 0 :].split("\n")[0] for name in wanted] == [
        "第三　当裁判所の判断", "一　争点", "（一）　検討", "（一）　検討"
    ]  # fmt: skip


def test_the_reasons_first_lines_alone_say_whether_brackets_are_parts() -> None:
    """From the red team: each heading path read 5,000 lines ahead to learn whether brackets are headings."""
    long_lines = "\n".join("ｱ" * 76 for _ in range(4_990))
    assert not brackets_open_parts(f"主文\n棄却\n事実及び理由\n{long_lines}\n【量刑の理由】\n")
    assert brackets_open_parts("主文\n棄却\n事実及び理由\n" + "\n" * 10 + "【量刑の理由】\n")


@pytest.mark.parametrize(
    ("text", "below"),
    [
        (
            "原審は、控訴人の文書提出命令の申立てを却下した。原審は、控訴人の請求を全部認容した。",
            "原審は、控訴人の請求",
        ),
        (
            "原判決は、請求を棄却したものであって、取り消されるべきである。\n第１審判決は、請求を棄却した。",
            "第１審判決は",
        ),
    ],
)
def test_what_the_court_below_decided_is_its_disposal_of_the_case_not_a_ruling_or_an_argument(
    text: str, below: str
) -> None:
    """From the red team: a ruling on evidence hid the court below's result, and a party's argument stood for it."""
    assert [sentence[: len(below)] for _, sentence in decided_below(text)] == [below]


def test_a_first_instance_tells_of_no_court_below(cases: CaseSearch) -> None:
    """From the red team: a first instance quoted a 前訴's 第1審 as its own court below."""
    hit = next(hit for hit in cases.search("原審", BUDGET_BYTES).results if hit.doc_id == "F")
    assert hit.decided_below is None


def test_a_reasoning_term_not_found_in_a_part_outside_the_reasoning_is_not_said_to_lack_a_reasoning_heading(
    cases: CaseSearch,
) -> None:
    found = cases.passages("G", "判断:刺した", 20, BUDGET_BYTES, heading="罪となるべき事実")
    assert found.hits == 0 and found.message is not None and "見出しが見つかりません" not in found.message
    nowhere = cases.passages("F", "判断:棄却", 20, BUDGET_BYTES)
    assert nowhere.message is not None and "見出しが見つかりません" in nowhere.message
