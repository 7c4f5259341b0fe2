"""findInCase's places: pages that reach every occurrence once, proximity places checked against a brute force,
and the heading path of any place."""

from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st

from search_core.kinds.case_law.headings import LINES_READ_BACK, heading_path
from search_core.kinds.case_law.normalize import normalize
from search_core.kinds.case_law.passages import NEAR_CHARS, aligned, near_places, occurrences
from search_core.kinds.case_law.query import parse
from search_core.kinds.case_law.terms import Phrase

EXAMPLES = int(os.environ.get("HYPOTHESIS_EXAMPLES", "300"))
JUDGMENT = (
    "主文\n１　被告は、原告に対し、金300万円を支払え。\n\n事実及び理由\n第１　請求\n本文\n"
    "第３　当裁判所の判断\n１　争点１（過失の有無）について\n（１）認定事実　監査役Ｄ３は懸念を述べた。\n"
    "ア　取締役会　取締役は応じなかった。\n２　争点２について\n損害は生じた。"
)


def test_pages_from_next_start_reach_every_occurrence_once() -> None:
    # Given a text where a term occurs 23 times, two of them at offsets shared by a numeral's normal form
    text = "の" * 20 + "第七百九条、七百九条、709条"
    terms = parse("の 709条").positive_terms
    # When it is read a page of 5 at a time, each from the previous page's next_start
    seen, start, pages = [], 0, 0
    while start is not None:
        found = occurrences(text, terms, 5, start)
        seen += [(place.start, place.term) for place in found.first]
        start, pages = found.next_start, pages + 1
    # Then every occurrence comes exactly once, in order, and every page says the exact total
    everything = occurrences(text, terms, 100)
    assert seen == [(place.start, place.term) for place in everything.first]
    assert len(seen) == everything.total == 23
    assert pages == 5


def test_a_page_starts_at_its_start() -> None:
    text = "過失" + "あ" * 50 + "過失" + "い" * 50 + "過失"
    found = occurrences(text, parse("過失").positive_terms, 1, start=3)
    assert [place.start for place in found.first] == [52]
    assert (found.total, found.next_start) == (3, 104)


def test_near_finds_where_the_terms_occur_together_not_apart() -> None:
    # Given one term near the start and both terms together 300 characters on
    text = "監査役は出席した。" + "あ" * 300 + "監査役Ｄ３は強い懸念を述べた。" + "い" * 300 + "懸念"
    found = near_places(text, parse("監査役 懸念").clauses, 5)
    # Then the one place is where both are, and it is what the proximity mode counts
    assert found.total == 1
    assert text[found.first[0].start : found.first[0].end] == "監査役Ｄ３は強い懸念"
    assert found.first[0].term == "監査役 懸念"


def brute_near(text: str, words: list[str]) -> list[tuple[int, int]]:
    """The proximity places by their definition, read naively: from each occurrence left to right, the shortest
    stretch holding every word, if within NEAR_CHARS; the next place begins after it ends."""
    spans = sorted(
        (i, i + len(word), k) for k, word in enumerate(words) for i in range(len(text)) if text.startswith(word, i)
    )
    spans = [s for s in spans if not any(o[2] == s[2] and o[0] < s[0] < o[1] for o in spans)]  # no overlap
    places: list[tuple[int, int]] = []
    for index, (start, _, _) in enumerate(spans):
        if places and start < places[-1][1]:
            continue
        held: set[int] = set()
        for span_start, _, k in spans[index:]:
            if span_start - start > NEAR_CHARS:
                break
            held.add(k)
            if len(held) == len(words):
                end = max(e for s, e, _ in spans[index:] if s <= span_start)
                places.append((start, end))
                break
    return places


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.lists(st.sampled_from(["あ", "過失", "損害", " ", "x" * 150]), max_size=40))
def test_near_places_are_the_brute_force_ones(pieces: list[str]) -> None:
    text = "".join(pieces)
    found = near_places(text, ((Phrase("過失"),), (Phrase("損害"),)), 1000)
    assert [(p.start, p.end) for p in found.first] == brute_near(text, ["過失", "損害"])
    assert found.total == len(found.first)


def test_heading_paths_follow_the_levels_of_a_judgment() -> None:
    def path_at(place: int) -> list[str]:
        return heading_path(JUDGMENT, place)

    assert path_at(JUDGMENT.index("監査役")) == [
        "事実及び理由",
        "第３　当裁判所の判断",
        "１　争点１（過失の有無）について",
        "（１）認定事実",
    ]
    # a heading closes those of its level and below: ア sits under (1); 2 replaces 1 and closes (1) and ア
    assert path_at(JUDGMENT.index("取締役は"))[-1] == "ア　取締役会"
    assert path_at(JUDGMENT.index("損害は")) == ["事実及び理由", "第３　当裁判所の判断", "２　争点２について"]
    assert path_at(JUDGMENT.index("金300万円")) == ["主文", "１　被告は、原告に対し、金300万円を支払え"]


def test_a_long_heading_line_is_cut_to_its_title() -> None:
    text = "第１　" + "長" * 100
    title = heading_path(text, 5)[0]
    assert title.endswith("…") and len(title) == 30


TRICKY = ["3百万円", "１億5千万円", "三百万", "ｶﾞｽ", "カ\u3099", "\u1100\u1161", "Ａ", "ß", "第七百九条", "万一", "千代",
          "3,000千円", "㌖", "e\u0301", " ", "\n", "あ", "0", "百"]  # fmt: skip


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.lists(st.sampled_from(TRICKY), max_size=12).map("".join))
def test_passages_read_the_text_exactly_as_the_search_normalises_it(text: str) -> None:
    """From the red team: findInCase missed 3百万円, ｶﾞｽ and decomposed kana that searchCases found, because it
    normalised a character at a time. What it searches must be the search's own normal form."""
    plain, starts = aligned(text)
    assert plain == normalize(text)
    assert len(starts) == len(plain) and starts == sorted(starts)


def test_near_reads_or_as_either() -> None:
    """From the red team: near made every term of `過失 OR 損害 慰謝料` required, so a place with 過失 and 慰謝料
    but no 損害 was not found, though the search matched the decision."""
    text = "過失があり、" + "あ" * 100 + "慰謝料を認める"
    found = near_places(text, parse("過失 OR 損害 慰謝料").clauses, 5)
    assert found.total == 1 and found.first[0].term == "過失 OR 損害 慰謝料"


def test_a_heading_path_costs_the_same_after_a_million_heading_lines() -> None:
    """From the red team: a decision of a million heading lines took 48 s to page, read forwards each time."""
    text = "第1 請求\n" + "ア 見出し\n" * 1_000_000 + "末尾"
    # Read back LINES_READ_BACK lines at most: 第1 lies further back, so it is not in the path
    assert heading_path(text, len(text) - 1) == ["ア 見出し"]
    assert heading_path(text, len(text) - 1 - LINES_READ_BACK * len("ア 見出し\n") * 2) == ["ア 見出し"]
