"""The court filter: a level (高裁) is every court of it and no other; a named court is that court with its branches;
a name never matches inside a longer court word (高裁 in 最高裁判所, 大阪 in 東大阪簡易裁判所)."""

from __future__ import annotations

from collections.abc import Iterator

import duckdb
import pytest

from search_core.kinds.case_law.service import case_query
from search_core.kinds.case_law.store.build import prepare
from search_core.kinds.case_law.store.index import CaseIndex
from search_core.kinds.case_law.text.courts import canonical_court
from tests.conftest import write_export

# One decision per court, named by doc_id; 大阪地裁 is stored abbreviated, as some sources write it.
COURTS = {
    "supreme": "最高裁判所第二小法廷",
    "tokyo-high": "東京高等裁判所",
    "ip-high": "知的財産高等裁判所",
    "naha-high-branch": "福岡高等裁判所那覇支部",
    "tokyo-district": "東京地方裁判所",
    "tachikawa-branch": "東京地方裁判所立川支部",
    "osaka-district": "大阪地裁",
    "osaka-family": "大阪家庭裁判所",
    "tokyo-summary": "東京簡易裁判所",
    "higashiosaka-summary": "東大阪簡易裁判所",
}
HIGH = {"tokyo-high", "ip-high", "naha-high-branch"}
DISTRICT = {"tokyo-district", "tachikawa-branch", "osaka-district"}
SUMMARY = {"tokyo-summary", "higashiosaka-summary"}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CaseIndex]:
    work = tmp_path_factory.mktemp("courts")
    source = work / "cases.jsonl"
    rows = [
        {"doc_id": doc_id, "court": court, "date": f"2024-01-{day:02d}", "main_text": "主文"}
        for day, (doc_id, court) in enumerate(COURTS.items(), start=1)
    ]
    prepare(write_export(source, rows), work / "cases.duckdb")
    opened = CaseIndex(duckdb.connect(str(work / "cases.duckdb"), read_only=True))
    yield opened
    opened.close()


def courts_matching(index: CaseIndex, court: str) -> set[str]:
    return {decision.doc_id for decision in index.search(case_query(None, court, 20)).decisions}


@pytest.mark.parametrize(
    ("court", "expected"),
    [("最高裁", {"supreme"}), ("最高裁判所", {"supreme"}), ("高裁", HIGH), ("高等裁判所", HIGH),
     ("地裁", DISTRICT), ("地方裁判所", DISTRICT), ("家裁", {"osaka-family"}), ("家庭裁判所", {"osaka-family"}),
     ("簡裁", SUMMARY), ("簡易裁判所", SUMMARY)],
)  # fmt: skip
def test_a_level_matches_every_court_of_it_and_no_other(index: CaseIndex, court: str, expected: set[str]) -> None:
    assert courts_matching(index, court) == expected


@pytest.mark.parametrize(
    ("court", "expected"),
    [("東京高裁", {"tokyo-high"}), ("東京高等裁判所", {"tokyo-high"}), ("大阪地裁", {"osaka-district"}),
     ("大阪地方裁判所", {"osaka-district"}), ("東京地裁立川支部", {"tachikawa-branch"}),
     ("東京地裁 立川支部", {"tachikawa-branch"}),
     ("知財高裁", {"ip-high"}), ("知財", {"ip-high"}), ("知的財産高等裁判所", {"ip-high"}),
     ("最高裁第二小法廷", {"supreme"}), ("東京簡裁", {"tokyo-summary"})],
)  # fmt: skip
def test_a_named_court_matches_that_court(index: CaseIndex, court: str, expected: set[str]) -> None:
    assert courts_matching(index, court) == expected


@pytest.mark.parametrize(
    ("court", "expected"),
    [("東京地裁", {"tokyo-district", "tachikawa-branch"}), ("福岡高裁", {"naha-high-branch"})],
)
def test_a_named_court_includes_its_branches(index: CaseIndex, court: str, expected: set[str]) -> None:
    assert courts_matching(index, court) == expected


@pytest.mark.parametrize(
    ("court", "expected"),
    [("立川支部", {"tachikawa-branch"}), ("那覇支部", {"naha-high-branch"})],
)
def test_a_branch_is_found_by_its_own_name(index: CaseIndex, court: str, expected: set[str]) -> None:
    assert courts_matching(index, court) == expected


@pytest.mark.parametrize(
    ("court", "expected"),
    [("東京", {"tokyo-high", "tokyo-district", "tachikawa-branch", "tokyo-summary"}),
     ("大阪", {"osaka-district", "osaka-family"}), ("最高裁判", {"supreme"}), ("大阪地", {"osaka-district"})],
)  # fmt: skip
def test_the_beginning_of_a_name_matches_the_courts_it_begins(index: CaseIndex, court: str, expected: set[str]) -> None:
    assert courts_matching(index, court) == expected


@pytest.mark.parametrize("court", ["大阪簡裁", "高等裁判所那覇", "京地裁", "財産高等裁判所"])
def test_a_name_never_matches_inside_a_longer_court_word(index: CaseIndex, court: str) -> None:
    assert courts_matching(index, court) == set()


@pytest.mark.parametrize(
    ("short", "full"),
    [("東京地裁", "東京地方裁判所"), ("大阪高裁", "大阪高等裁判所"), ("札幌家裁", "札幌家庭裁判所"),
     ("名古屋簡裁", "名古屋簡易裁判所"), ("最高裁", "最高裁判所"), ("知財高裁", "知的財産高等裁判所")],
)  # fmt: skip
def test_court_abbreviations_expand_both_ways(short: str, full: str) -> None:
    assert canonical_court(short) == canonical_court(full) == full


def test_full_names_are_not_expanded_twice() -> None:
    assert canonical_court("最高裁判所第二小法廷") == "最高裁判所第2小法廷"
    assert canonical_court("知的財産高等裁判所") == "知的財産高等裁判所"
    assert canonical_court("横浜地方裁判所川崎支部") == "横浜地方裁判所川崎支部"
