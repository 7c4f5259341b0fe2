"""findInCase pages, proximity and heading paths, and the headings of readCaseText and searchCases, through every
door on the sample data: a passage deep in a long decision is reached, and every answer says in which part it is."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tooling.doors import DOORS, Door, door_name, reply_of
from tooling.local import DATA_DIR

from search_core.kinds.case_law.descriptions import FIND_IN_CASE, READ_TEXT, SEARCH
from search_core.kinds.case_law.limits import SHOWN_PLACES
from search_core.kinds.case_law.store.exports import read_decisions

LONG = "R05-0930-LONG"
SAMPLE = {row["doc_id"]: row for row in read_decisions(DATA_DIR / "cases.db")}


@pytest.fixture(scope="module", params=DOORS, ids=door_name)
def door(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Door]:
    with request.param.serving(["search_cases"], "case_passages", tmp_path_factory.mktemp("cache")) as door:
        yield door


def passages(door: Door, **arguments: object) -> dict[str, object]:
    body: dict[str, object] = reply_of(door.call("search_cases", FIND_IN_CASE, {"doc_id": LONG, **arguments})).body
    return body


def test_paging_from_next_start_reaches_the_last_occurrence(door: Door) -> None:
    # Given a term the long decision holds 120 times, the last near its end
    long = SAMPLE[LONG]
    # When findInCase is paged with next_start, 20 at a time
    offsets: list[int] = []
    start: object = 0
    while start is not None:
        body = passages(door, keywords="慣行", limit=20, start=start)
        offsets += [passage["offset"] for passage in body["passages"]]  # type: ignore[attr-defined]
        start = body["next_start"]
    # Then every place comes once, in order, and the count said so from the first page
    assert len(offsets) == len(set(offsets)) == long["facts_and_reasons"].count("慣行") == body["hits"] == 120
    assert offsets == sorted(offsets)


def test_near_returns_only_places_where_all_terms_meet(door: Door) -> None:
    # 訴訟費用 occurs once, in the 主文, far from 第120条 at the end; 取引上の慣行 and 相当の期間 share each paragraph
    apart = passages(door, keywords="訴訟費用 第120条", mode="near", limit=5)
    together = passages(door, keywords="取引上の慣行 相当の期間", mode="near", limit=5)
    assert (apart["hits"], apart["passages"]) == (0, [])
    assert together["hits"] == 120 and together["more"] is True
    first = together["passages"][0]  # type: ignore[index]
    assert "取引上の慣行" in first["text"] and "相当の期間" in first["text"]
    assert first["term"] == "取引上の慣行 相当の期間"


def test_each_passage_names_the_part_it_lies_in(door: Door) -> None:
    body = passages(door, keywords="当裁判所の判断", start=20_000, limit=1)
    passage = body["passages"][0]  # type: ignore[index]
    number = passage["headings"][1].split("\u3000")[0]
    assert passage["headings"][0] == "事実及び理由" and number.startswith("第")
    assert passage["headings"][-1] == "（２）当裁判所の判断"


def test_a_page_names_the_part_it_starts_in(door: Door) -> None:
    page = reply_of(door.call("search_cases", READ_TEXT, {"doc_id": LONG, "offset": 20_000})).body
    assert page["headings"][0] == "事実及び理由" and len(page["headings"]) >= 2
    first_page = reply_of(door.call("search_cases", READ_TEXT, {"doc_id": LONG, "offset": 0})).body
    assert first_page["headings"] == ["主文"]


def test_a_search_hit_names_the_part_its_snippet_lies_in(door: Door) -> None:
    body = reply_of(door.call("search_cases", SEARCH, {"keywords": "相当の期間", "limit": 20})).body
    hit = next(hit for hit in body["results"] if hit["doc_id"] == LONG)
    assert hit["headings"][:2] == ["事実及び理由", "第1\u3000争点1について"]
    assert "相当の期間" in hit["snippet"]


def test_a_term_confined_to_the_main_text_is_searched_and_found_there(door: Door) -> None:
    body = reply_of(door.call("search_cases", SEARCH, {"keywords": "主文：請求", "limit": 20})).body
    assert {hit["doc_id"] for hit in body["results"]} == {
        doc_id for doc_id, row in SAMPLE.items() if "請求" in (row["main_text"] or "")
    }
    places = passages(door, keywords="主文:支払")
    main = SAMPLE[LONG]["main_text"]
    assert places["hits"] == main.count("支払") and all(
        passage["headings"] == ["主文", passage["headings"][1]]
        for passage in places["passages"]  # type: ignore[attr-defined]
    )


def test_a_court_written_as_a_keyword_is_said_to_belong_in_court(door: Door) -> None:
    body = reply_of(door.call("search_cases", SEARCH, {"keywords": "大法廷 OR 最高裁判所"})).body
    assert "「大法廷」「最高裁判所」は裁判所の名前です" in str(body.get("message")) and "court に書いて" in str(
        body["message"]
    )
    plain = reply_of(door.call("search_cases", SEARCH, {"keywords": "損害賠償"})).body
    assert "裁判所の名前" not in str(plain.get("message"))


def test_filters_that_leave_nothing_blame_no_term_and_say_what_the_court_holds(door: Door) -> None:
    arguments = {"keywords": "損害賠償", "court": "東京地裁", "date_from": "2020-01-01", "date_to": "2020-12-31"}
    body = reply_of(door.call("search_cases", SEARCH, arguments)).body
    assert "term_counts" not in body and "次の語を含む判決はありません" not in str(body["message"])
    court = reply_of(door.call("search_cases", SEARCH, {"court": "東京地裁", "limit": 20})).body
    dates = sorted(hit["date"] for hit in court["results"])
    said = f"日付を問わなければ {court['total']} 件あります（判決日 {dates[0]}〜{dates[-1]}）"
    assert said in str(body["message"])


@pytest.mark.parametrize("keywords", ["第9999条", "主文:9999万円", "主文:第9999条"])
def test_an_article_or_a_sum_no_decision_holds_is_not_blamed_on_its_wording(door: Door, keywords: str) -> None:
    body = reply_of(door.call("search_cases", SEARCH, {"keywords": keywords})).body
    assert "表記を変えても見つかりません" in str(body["message"]) and "表記を変えるか" not in str(body["message"])


def test_a_decision_without_the_terms_says_so_rather_than_a_bare_zero(door: Door) -> None:
    body = passages(door, keywords="ドローン")
    assert body["hits"] == 0 and "「ドローン」に当たる箇所はありません" in str(body["message"])
    assert "判決日・裁判所・事件番号・事件名・doc_id にも一致する" in str(body["message"])  # red team 8: a date term
    confined = passages(door, keywords="事件名:ＡＢＣ 損害")
    assert str(confined["message"]).startswith("事件名:ＡＢＣ は")  # named as written


def test_a_term_confined_to_the_case_name_is_said_to_be_outside_what_find_in_case_reads(door: Door) -> None:
    name = SAMPLE[LONG]["case_name"]
    word = name[:2]
    body = passages(door, keywords=f"事件名:{word}")
    assert body["hits"] == 0 and body["case_name"] == name
    assert f"事件名:{word} は事件名（本文の外）" in str(body["message"]) and "hits に含まれません" in str(
        body["message"]
    )
    assert "message" not in passages(door, keywords="主文:支払")


@pytest.mark.parametrize(
    ("keywords", "holders"),
    [("主文:1億円以上", {LONG}), ("主文：100万円以上", {LONG, "H31-0430-A"}), ("主文:100万円未満", {"S64-0107-J"})],
)
def test_a_range_of_sums_in_the_main_text_is_searched(door: Door, keywords: str, holders: set[str]) -> None:
    # The sample's 主文 order 金300万円 (H31-0430-A), 金50万円 (S64-0107-J) and 金1億2000万円 (the long decision)
    body = reply_of(door.call("search_cases", SEARCH, {"keywords": keywords, "limit": 20})).body
    assert {hit["doc_id"] for hit in body["results"]} == holders
    assert (body["total"], body["total_exact"]) == (len(holders), True)


def test_a_part_named_by_its_heading_is_read_from_its_first_line(door: Door) -> None:
    """From the agent frame: helpers asked for 第3の2 or 当裁判所の判断 and spent a findInCase call to find it."""
    # When the 120th part's judgment is asked for by its numbers, full width as a reader writes them
    page = reply_of(door.call("search_cases", READ_TEXT, {"doc_id": LONG, "heading": "第１２０の（２）"})).body
    # Then the page starts at that heading's line, and says where it is
    assert page["text"].startswith("（２）当裁判所の判断\u3000証拠及び弁論の全趣旨によれば")
    assert page["headings"] == ["事実及び理由", "第120\u3000争点120について", "（２）当裁判所の判断"]
    # And its offset is where that line begins: reading from the character before shows the line break
    before = reply_of(door.call("search_cases", READ_TEXT, {"doc_id": LONG, "offset": page["offset"] - 1})).body
    assert before["text"].startswith("\n（２）当裁判所の判断")


def test_a_heading_the_decision_lacks_is_refused_with_its_outline(door: Door) -> None:
    reply = reply_of(door.call("search_cases", READ_TEXT, {"doc_id": LONG, "heading": "第999"}))
    assert not reply.ok
    assert (
        "見出し「第999」はこの判決にありません" in reply.body["error"]
        and "第1\u3000争点1について" in reply.body["error"]
    )
    assert "（ほか 102 件）" in reply.body["error"]  # 主文, 事実及び理由 and 第1 to 第120: 20 shown
    outside = reply_of(door.call("search_cases", READ_TEXT, {"doc_id": LONG, "heading": "第1", "offset": 5}))
    assert not outside.ok and "の外です" in outside.body["error"]


def test_sentence_returns_only_places_where_all_terms_share_a_sentence(door: Door) -> None:
    """mode=sentence, from the agent frame: within 200 characters, the terms may sit in other sentences."""
    # 取引上の慣行 and 相当の期間 share one sentence of each of the 120 parts; 当事者の主張 and 相当の期間 share a
    # part's paragraph, never a sentence
    together = passages(door, keywords="取引上の慣行 相当の期間", mode="sentence", limit=5)
    near_only = passages(door, keywords="当事者の主張 相当の期間", mode="near", limit=5)
    apart = passages(door, keywords="当事者の主張 相当の期間", mode="sentence", limit=5)
    assert together["hits"] == 120 and "取引上の慣行" in together["passages"][0]["text"]  # type: ignore[index]
    assert near_only["hits"] > 0 and (apart["hits"], apart["passages"]) == (0, [])


def test_a_search_hit_shows_where_a_decision_holds_the_terms_asked_for(door: Door) -> None:
    """From the agent frame: to tell a party's argument from the court's finding, helpers called findInCase on each
    hit (3-4 calls a question); `passages` shows some of each hit's places of a second expression."""
    # When the long decision is searched for, asking where 慣行 occurs (120 times, once in each of 120 parts)
    body = reply_of(door.call("search_cases", SEARCH, {"keywords": "原告", "passages": "慣行", "limit": 20}))
    hit = next(hit for hit in body.body["results"] if hit["doc_id"] == LONG)
    # Then it shows SHOWN_PLACES of findInCase's places, the first among them, in order, counted as findInCase counts
    every: list[dict[str, object]] = []
    start: object = 0
    while start is not None:
        page = passages(door, keywords="慣行", limit=20, start=start)
        every += page["passages"]  # type: ignore[arg-type]
        start = page["next_start"]
    shown = [place["offset"] for place in hit["passages"]]
    assert hit["passage_hits"] == len(every) == 120
    assert shown[0] == every[0]["offset"] and shown == sorted(shown) and len(shown) == SHOWN_PLACES
    assert [place["headings"] for place in hit["passages"]] == [
        place["headings"] for place in every if place["offset"] in shown
    ]
    assert all(place["headings"] and "慣行" in place["text"] for place in hit["passages"])
    # And a hit that does not hold the term shows none; without `passages`, no hit carries them
    without = [h for h in body.body["results"] if h["passage_hits"] == 0]
    assert without and all(h["passages"] == [] and "慣行" not in h["snippet"] for h in without)
    plain = reply_of(door.call("search_cases", SEARCH, {"keywords": "慣行"})).body
    assert all("passages" not in h and "passage_hits" not in h for h in plain["results"])


def test_passages_that_ask_for_nothing_are_refused_with_what_to_do(door: Door) -> None:
    reply = reply_of(door.call("search_cases", SEARCH, {"keywords": "慣行", "passages": "-慣行"}))
    assert (
        not reply.ok
        and "passages" in reply.body["error"]
        and "除外語（-慣行）だけでは探せません" in reply.body["error"]
    )
