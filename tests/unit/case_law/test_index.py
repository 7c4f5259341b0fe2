"""Search semantics over the prepared sample: AND of exact substrings on normal forms, filters, newest first."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tooling.local import DATA_DIR

from search_core.fulltext.citations import Citation
from search_core.fulltext.dates import date_span, parse_decision_date
from search_core.fulltext.expression import Expression
from search_core.fulltext.normalize import normalize, split_keywords
from search_core.fulltext.packed import unpacked
from search_core.fulltext.terms import Phrase
from search_core.kinds.case_law.language import parse
from search_core.kinds.case_law.limits import MAX_NAMED_WITHIN_FILTERS
from search_core.kinds.case_law.models import CaseMatches, CaseQuery
from search_core.kinds.case_law.store.build import search_text
from search_core.kinds.case_law.store.exports import read_decisions
from search_core.kinds.case_law.store.index import CaseIndex, relevance
from search_core.kinds.case_law.text.courts import canonical_court
from tests.conftest import opened_cases, write_export

SAMPLE = DATA_DIR / "cases.db"


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CaseIndex]:
    with opened_cases(SAMPLE, tmp_path_factory.mktemp("cases")) as opened:
        yield opened


def ids(index: CaseIndex, keywords: str, limit: int = 20, **filters: object) -> list[str]:
    return [decision.doc_id for decision in found(index, keywords, limit, **filters).decisions]


def found(index: CaseIndex, keywords: str, limit: int = 20, **filters: object) -> CaseMatches:
    court = filters.pop("court", None)
    query = CaseQuery(parse(keywords), limit, canonical_court(str(court)) if court else None, **filters)  # type: ignore[arg-type]
    return index.search(query)


def test_every_keyword_must_match(index: CaseIndex) -> None:
    assert ids(index, "損害賠償 控訴") == ["R10-0101-H", "R09-1231-I"]


@pytest.mark.parametrize("spelling", ["ＰＲＯＶＩＤＥＲ", "Provider", "provider"])
def test_width_and_case_do_not_matter(index: CaseIndex, spelling: str) -> None:
    assert ids(index, spelling) == ["R01-0501-B"]


@pytest.mark.parametrize("article", ["第七百九条", "第709条", "第７０９条"])
def test_kanji_and_arabic_article_numbers_find_each_other(index: CaseIndex, article: str) -> None:
    assert ids(index, f"民法{article}") == ["R10-0101-H", "R07-0307-C", "H31-0430-A"]


@pytest.mark.parametrize("article", ["第3条", "3条", "第三条", "三条"])
def test_an_article_finds_itself_and_not_a_longer_number(index: CaseIndex, article: str) -> None:
    found = ids(index, article)
    assert "R05-0930-LONG" in found  # 本件契約の第3条
    assert "2024-12-01-F" not in found  # 民法第七〇三条 is article 703


@pytest.mark.parametrize(
    ("keyword", "expected"),
    [("100%", ["PCT-100-L"]), ("under_score", ["PCT-100-L"]), ("\\", ["PCT-100-L"]), ("'と\"", ["PCT-100-L"]),
     ("%", ["PCT-100-L"]), ("_", ["PCT-100-L"])],
)  # fmt: skip
def test_wildcards_and_quotes_are_literal(index: CaseIndex, keyword: str, expected: list[str]) -> None:
    assert ids(index, keyword) == expected


def test_results_are_newest_first_by_real_date(index: CaseIndex) -> None:
    found = ids(index, "事件")
    assert len(found) == 14
    dated = [i for i in found if i != "UNDATED-M"]
    assert dated[:2] == ["R10-0101-H", "R09-1231-I"]  # 令和10年 before 令和9年
    assert found.index("R01-0501-B") < found.index("H31-0430-A")  # 令和元年 after 平成31年
    assert found.index("H01-0108-K") < found.index("S64-0107-J")


def test_undated_decisions_come_last(index: CaseIndex) -> None:
    assert ids(index, "請求を棄却")[-1] == "UNDATED-M"


@pytest.mark.parametrize("court", ["東京地裁", "東京地方裁判所"])
def test_court_matches_abbreviated_and_full_names(index: CaseIndex, court: str) -> None:
    assert set(ids(index, "原告", court=court)) == {"R05-0930-LONG", "PCT-100-L", "R01-0501-B", "H31-0430-A"}


def test_court_matches_benches_and_branches(index: CaseIndex) -> None:
    assert ids(index, "上告", court="最高裁") == ["R07-0307-C"]
    assert ids(index, "賃料", court="横浜地裁") == ["R06-1220-E"]


def test_date_range_is_inclusive(index: CaseIndex) -> None:
    found = ids(index, "事件", date_from=date(2019, 4, 30), date_to=date(2019, 5, 1))
    assert found == ["R01-0501-B", "H31-0430-A"]


def test_limit_is_applied(index: CaseIndex) -> None:
    assert len(ids(index, "事件", limit=3)) == 3


def test_no_hit_is_empty(index: CaseIndex) -> None:
    assert ids(index, "存在しない語句") == []


@pytest.mark.parametrize(
    "written", ["2019-04-30", "2019/4/30", "平成31年4月30日", "平成三十一年四月三十日", "２０１９年４月３０日"]
)
def test_a_date_in_any_writing_finds_the_decisions_of_that_day(index: CaseIndex, written: str) -> None:
    assert ids(index, written) == ["H31-0430-A"]


@pytest.mark.parametrize(("written", "expected"), [("令和元年", ["R01-0501-B"]), ("令和1年", ["R01-0501-B"])])
def test_a_year_or_month_finds_the_decisions_in_it(index: CaseIndex, written: str, expected: list[str]) -> None:
    assert ids(index, written) == expected
    assert set(ids(index, "2019年")) == {"R01-0501-B", "H31-0430-A"}  # both eras of 2019
    assert ids(index, "2019年5月") == ["R01-0501-B"]


@pytest.mark.parametrize("keywords", ["事件", "原告 OR 被告", "損害賠償", "第3条"])
def test_by_relevance_the_most_occurrences_per_thousand_characters_come_first(index: CaseIndex, keywords: str) -> None:
    expression = parse(keywords)
    scores = {
        row["doc_id"]: relevance(search_text(row), expression)
        for row in read_decisions(SAMPLE)
        if expression.holds_in(search_text(row), parse_decision_date(row["date"]))
    }
    ranked = ids(index, keywords, limit=3, by_relevance=True)
    assert [scores[doc] for doc in ranked] == sorted(scores.values(), reverse=True)[:3]


def test_every_searched_column_counts(index: CaseIndex) -> None:
    assert ids(index, "H10-0310-G") == ["H10-0310-G"]  # doc_id
    assert ids(index, "令和七年三月七日") == ["R07-0307-C"]  # date as stored, numerals folded
    assert ids(index, "(受)第210号") == ["R07-0307-C"]  # case_number


def test_keywords_never_match_across_columns(index: CaseIndex) -> None:
    # case_name ends 「事件」 and main_text starts 「被告は」 in H31-0430-A; joined they must not match.
    assert "H31-0430-A" not in ids(index, "事件被告は")


def brute_force(keywords: list[str]) -> list[str]:
    texts = {row["doc_id"]: search_text(row) for row in read_decisions(SAMPLE)}
    return sorted(doc for doc, text in texts.items() if all(k in text for k in keywords))


_ALPHABET = "損害賠償民法第七百九709条控訴原告被告判決事件の、。ＰＲＯprovide%_\\'\"年月日令和平成東京地裁高"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet=_ALPHABET, min_size=1, max_size=4), min_size=1, max_size=3))
def test_results_equal_the_exact_and_of_substrings(index: CaseIndex, words: list[str]) -> None:
    keywords = split_keywords(" ".join(words))
    if not keywords:
        return
    matches = index.search(CaseQuery(Expression(tuple((Phrase(k),) for k in keywords)), 20))
    assert sorted(d.doc_id for d in matches.decisions) == brute_force(keywords)
    assert (matches.total, matches.total_exact) == (len(brute_force(keywords)), True)


# Words as a quoted phrase holds them: no quote, no space at either end, not empty once normalised.
_WORD = st.text(alphabet=_ALPHABET.replace('"', ""), min_size=1, max_size=3).filter(
    lambda w: normalize(w).strip() == normalize(w) != ""
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(_WORD, min_size=1, max_size=3), min_size=0, max_size=3),
    st.lists(st.tuples(_WORD, st.integers(0, 3), st.booleans()), min_size=0, max_size=2),
)
def test_operators_give_exactly_the_and_of_ors_without_the_excluded(
    index: CaseIndex, clauses: list[list[str]], exclusions: list[tuple[str, int, bool]]
) -> None:
    """The keyword language, written out with OR and -, against a brute-force reading of every decision (a word that
    is a date, a month or a year holds for the decisions of those days too). An exclusion stands anywhere between the
    clauses, perhaps followed by an OR, which then joins nothing."""
    parts = [" OR ".join(f'"{w}"' for w in clause) for clause in clauses]
    for word, place, then_or in exclusions:
        parts.insert(min(place, len(parts)), f'-"{word}"' + (" OR" if then_or else ""))
    written = " ".join(parts)
    excluded = [word for word, _, _ in exclusions]
    decisions = {row["doc_id"]: (search_text(row), parse_decision_date(row["date"])) for row in read_decisions(SAMPLE)}

    def holds(word: str, text: str, day: date | None) -> bool:
        written = normalize(word)
        span, cited = date_span(written), Citation.read(written)
        if span is not None:
            return written in text or (day is not None and span[0] <= day <= span[1])
        return cited.holds(text) if cited is not None else written in text

    expected = {
        doc
        for doc, (text, day) in decisions.items()
        if all(any(holds(w, text, day) for w in clause) for clause in clauses)
        and not any(holds(w, text, day) for w in excluded)
    }
    matches = index.search(CaseQuery(parse(written), len(decisions)))
    assert {d.doc_id for d in matches.decisions} == expected
    assert (matches.total, matches.total_exact) == (len(expected), True)


def test_csv_and_jsonl_exports_prepare_to_the_same_index(tmp_path: Path, index: CaseIndex) -> None:
    import csv

    con = sqlite3.connect(SAMPLE)
    columns = [r[1] for r in con.execute("PRAGMA table_info(cases)")]
    rows = con.execute("SELECT * FROM cases").fetchall()
    con.close()
    csv_path, jsonl_path = tmp_path / "cases.csv", tmp_path / "cases.jsonl"
    with csv_path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(columns)
        writer.writerows(rows)
    write_export(jsonl_path, (dict(zip(columns, r, strict=True)) for r in rows))
    for path in (csv_path, jsonl_path):
        with opened_cases(path, tmp_path / path.suffix[1:]) as other:
            assert ids(other, "損害賠償") == ids(index, "損害賠償")


def test_short_terms_are_counted_by_the_index_alone(index: CaseIndex) -> None:
    matches = found(index, "事件 OR 判決", limit=1)
    texts = [search_text(row) for row in read_decisions(SAMPLE)]
    assert (matches.total, matches.total_exact) == (sum("事件" in t or "判決" in t for t in texts), True)


def test_a_search_stops_once_its_deadline_has_passed(index: CaseIndex) -> None:
    query = CaseQuery(parse("損害賠償"), 20, None)  # more than two characters: checked on the text
    with pytest.raises(TimeoutError):
        index.search(query, deadline=time.monotonic() - 1)
    assert index.search(query, deadline=time.monotonic() + 60)


def test_a_term_of_two_characters_is_counted_by_the_index_even_out_of_time(index: CaseIndex) -> None:
    # Given an empty answer, reached with no time left to read any decision
    query = CaseQuery(parse("開示 存在しない言い回し"), 5)
    # When its terms are counted
    found = index.search(query, deadline=time.monotonic() - 1)
    # Then 開示 (one character pair: the index alone knows which decisions hold it) has its exact count
    assert found.total == 0
    assert found.term_counts[Phrase("開示")] == len(brute_force(["開示"])) > 0


def test_terms_of_an_empty_answer_share_the_time_left_and_are_all_counted(index: CaseIndex) -> None:
    # Given an empty answer whose terms each need their decisions read (more than two characters)
    query = CaseQuery(parse("損害賠償 発信者情報 存在しない言い回し"), 5)
    # When it is searched with the usual deadline
    found = index.search(query, deadline=time.monotonic() + 3)
    # Then every term has its exact count, the missing one zero
    assert found.total == 0
    counts = {term.text: count for term, count in found.term_counts.items()}
    assert counts == {t: len(brute_force([t])) for t in ("損害賠償", "発信者情報", "存在しない言い回し")}


def test_a_date_filter_counts_the_undated_decisions_it_leaves_out(tmp_path: Path) -> None:
    rows = [
        {"doc_id": "dated", "court": "東京地方裁判所", "date": "2024-05-01", "main_text": "棄却する。",
         "facts_and_reasons": "損害賠償を求めた。"},
        {"doc_id": "undated", "court": "東京地方裁判所", "date": None, "main_text": "棄却する。",
         "facts_and_reasons": "損害賠償を求めた。"},
        {"doc_id": "undated-other", "court": "東京地方裁判所", "date": None, "main_text": "却下する。",
         "facts_and_reasons": "登記を求めた。"},
    ]  # fmt: skip
    with opened_cases(write_export(tmp_path / "cases.jsonl", rows), tmp_path / "work") as index:
        dated = found(index, "損害賠償", date_from=date(2024, 1, 1))
        assert [d.doc_id for d in dated.decisions] == ["dated"] and dated.undated == 1
        assert found(index, "損害賠償").undated is None  # no date filter, nothing left out
        assert found(index, "", date_to=date(2023, 1, 1)).undated == 2


def test_a_confined_term_reads_the_main_text_normalised_when_prepared(index: CaseIndex) -> None:
    # Given each decision's stored searched text and where its 主文 lies in it
    rows = index.con.execute(
        "SELECT c.doc_id, c.main_at, c.main_length, t.packed FROM cases c JOIN texts t USING (doc_num)"
    ).fetchall()
    # Then the slice is the 主文 as normalised, which a 主文: term reads instead of normalising it at query time
    for doc_id, at, length, packed in rows:
        texts = unpacked(packed)
        assert texts.searched[at : at + length] == normalize(texts.main_text or ""), doc_id
    assert rows


def test_an_empty_answer_names_the_few_decisions_its_filters_hold(index: CaseIndex) -> None:
    # Given a court whose decisions are few, and a term none of them holds
    within = ids(index, "", court="京都家裁")
    assert 0 < len(within) <= MAX_NAMED_WITHIN_FILTERS
    # When the term is searched within that court, Then the answer names exactly the court's decisions
    answer = found(index, "存在しない言い回し", court="京都家裁")
    assert answer.total == 0 and [listed.doc_id for listed in answer.within_filters] == within
    # And a filter holding more than a few names none
    assert len(ids(index, "", date_from=date(1900, 1, 1))) > MAX_NAMED_WITHIN_FILTERS
    assert found(index, "存在しない言い回し", date_from=date(1900, 1, 1)).within_filters == ()
