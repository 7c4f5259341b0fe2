"""Terms confined to a part of the decision (主文:…, 事件名:…): found there only, checked against the sample read
directly."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from tooling.local import DATA_DIR

from search_core.engine.budget import TRUNCATION_MARKER
from search_core.errors import DataUnavailable
from search_core.fulltext.normalize import normalize
from search_core.fulltext.places import occurrences
from search_core.kinds.case_law.language import parse
from search_core.kinds.case_law.limits import NAME_CHARS
from search_core.kinds.case_law.models import CaseQuery, Decision
from search_core.kinds.case_law.reading.answers import identity
from search_core.kinds.case_law.store.database import open_cases
from search_core.kinds.case_law.store.index import CaseIndex
from search_core.storage.cache import LocalCopy
from tests.conftest import TEST_LIMITS, opened_cases

ROWS = sqlite3.connect(DATA_DIR / "cases.db").execute("SELECT doc_id, case_name, main_text FROM cases").fetchall()


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CaseIndex]:
    with opened_cases(DATA_DIR / "cases.db", tmp_path_factory.mktemp("cases")) as opened:
        yield opened


def found(index: CaseIndex, keywords: str) -> set[str]:
    return {decision.doc_id for decision in index.search(CaseQuery(parse(keywords), 20)).decisions}


def holding(column: int, word: str) -> set[str]:
    return {row[0] for row in ROWS if word in normalize(row[column] or "")}


@pytest.mark.parametrize("word", ["請求", "棄却", "支払", "損害賠償"])
def test_a_term_confined_to_the_main_text_is_found_there_only(index: CaseIndex, word: str) -> None:
    assert found(index, f"主文:{word}") == holding(2, word)
    assert found(index, f"主文：{word}") == holding(2, word)  # the full-width colon too


def test_the_main_text_narrows_what_the_whole_decision_finds(index: CaseIndex) -> None:
    assert found(index, "請求") - found(index, "主文:請求") == found(index, "請求 -主文:請求")
    assert len(found(index, "主文:請求")) < len(found(index, "請求"))


@pytest.mark.parametrize("word", ["請求", "損害賠償"])
def test_a_term_confined_to_the_case_name_is_found_there_only(index: CaseIndex, word: str) -> None:
    assert found(index, f"事件名:{word}") == holding(1, word)


def test_an_amount_in_the_main_text_matches_its_writings(index: CaseIndex) -> None:
    assert found(index, "主文:1億2000万円") == {"R05-0930-LONG"}
    assert found(index, "主文:損害賠償") == set()


def test_a_colon_after_another_word_is_text() -> None:
    assert [term.text for term in parse("理由:棄却 主文:").terms] == ["理由:棄却", "主文:"]


def test_a_part_has_no_date_of_its_own() -> None:
    """From the red team: 主文:令和元年 matched every decision of 2019, the date read as the 主文's."""
    expression = parse("主文:令和元年")
    assert not expression.holds_in("令和元年", date(2019, 6, 1), parts=lambda part: "本件控訴を棄却する。")
    assert expression.holds_in("", None, parts=lambda part: "令和元年6月1日付けの処分を取り消す。")


def test_passages_are_found_in_what_the_court_wrote_not_in_the_headings_added() -> None:
    """From the red team: findInCase counted the 主文 and 事実及び理由 lines the full text adds."""
    decision = Decision(1, "d", None, None, None, None, None, "本件控訴を棄却する。", "主文のとおり判決する。理由は…")
    found = occurrences(decision.full_text, parse("主文 理由").positive_terms, 20, regions=decision.regions)
    (place,) = found.first  # one place: the two occurrences lie within what one passage shows
    assert (place.start, place.end, place.count) == (
        decision.full_text.index("主文のとおり"),
        decision.full_text.index("理由は") + len("理由"),
        2,
    )
    assert found.total == 2


def test_a_name_as_long_as_a_page_is_cut() -> None:
    """From the red team: a 40,000-character case name left no room for the text of the decision."""
    decision = Decision(1, "d", None, None, None, None, "名" * 40_000, "主文", "理由")
    assert len(identity(decision)["case_name"]) == NAME_CHARS + len(TRUNCATION_MARKER)


def test_a_file_that_is_no_export_of_decisions_is_refused(tmp_path: Path) -> None:
    """From the red team: arbitrary bytes named cases.db were read as a CSV of no decisions, so every search said
    that no decision holds the words."""
    junk = tmp_path / "cases.db"
    junk.write_bytes(bytes(range(256)) * 8)
    with pytest.raises(DataUnavailable, match="cases"):
        open_cases(LocalCopy(junk, "junk"), TEST_LIMITS, tmp_path / "work")


def test_a_jsonl_line_that_is_no_object_is_refused_and_leaves_nothing_behind(tmp_path: Path) -> None:
    """From the red team: a JSONL export holding the valid line 123 answered every call with an internal error, and
    left a .partial file in the cache."""
    export = tmp_path / "cases.jsonl"
    export.write_text('{"doc_id": "A", "main_text": "棄却"}\n123\n', encoding="utf-8")
    with pytest.raises(DataUnavailable, match="cases"):
        open_cases(LocalCopy(export, "jsonl"), TEST_LIMITS, tmp_path / "work")
    assert not list((tmp_path / "work").rglob("*.partial"))
