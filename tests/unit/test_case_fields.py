"""Terms confined to a part of the decision (主文:…, 事件名:…): found there only, checked against the sample read
directly."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

import pytest

from search_core.kinds.case_law.database import open_cases
from search_core.kinds.case_law.index import CaseIndex
from search_core.kinds.case_law.models import CaseQuery
from search_core.kinds.case_law.normalize import normalize
from search_core.kinds.case_law.query import parse
from search_core.storage.cache import LocalCopy
from tests.conftest import DATA_DIR, TEST_LIMITS

ROWS = sqlite3.connect(DATA_DIR / "cases.db").execute("SELECT doc_id, case_name, main_text FROM cases").fetchall()


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CaseIndex]:
    opened = open_cases(LocalCopy(DATA_DIR / "cases.db", "sample"), TEST_LIMITS, tmp_path_factory.mktemp("cases"))
    yield opened
    opened.close()


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
