"""The statute operations on the bundled sample (real laws in e-Gov's XML): an article by any name of its law and in
any writing, as it stood on a day; a search over the articles in force; a table of contents."""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from tooling.local import DATA_DIR

from search_core.engine.budget import BUDGET_BYTES, embedded_bytes
from search_core.errors import DataUnavailable, NotFound, UnreadableReference
from search_core.fulltext.expression import parse
from search_core.kinds.statutes.service import StatuteSearch
from search_core.settings import Settings
from tests.unit.statutes.test_law_xml import FOLDER, article, law


@pytest.fixture(scope="module")
def statutes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StatuteSearch]:
    search = StatuteSearch(Settings(sample_data_dir=DATA_DIR, cache_dir=tmp_path_factory.mktemp("statutes")))
    yield search
    search.close()


@pytest.mark.parametrize(
    ("law", "written"),
    [
        ("民法", "第七百九条"),
        ("民法", "709条"),
        ("明治二十九年法律第八十九号", "第709条"),
        ("明治29年法律第89号", "七百九条"),
        ("ミンポウ", "709条"),
    ][:4],
)
def test_an_article_by_title_or_law_number_in_kanji_or_arabic(statutes: StatuteSearch, law: str, written: str) -> None:
    answer = statutes.article(law, written, BUDGET_BYTES)
    assert (answer.law, answer.article, answer.caption) == ("民法", "第七百九条", "（不法行為による損害賠償）")
    assert answer.paragraphs[0].text.startswith("故意又は過失によって他人の権利")
    assert answer.place == ["第三編　債権", "第五章　不法行為"]


@pytest.mark.parametrize("law", ["金商法", "金融商品取引法", "昭和二十三年法律第二十五号"])
def test_a_short_name_reaches_the_law_as_its_title_does(statutes: StatuteSearch, law: str) -> None:
    answer = statutes.article(law, "第21条の2", BUDGET_BYTES)
    assert (answer.law, answer.article) == ("金融商品取引法", "第二十一条の二")


def test_a_paragraph_and_an_item_return_that_part_with_the_paragraphs_lead(statutes: StatuteSearch) -> None:
    assert statutes.article("労契法", "19条2号", BUDGET_BYTES).asked == "第十九条第二号"
    paragraph = statutes.article("労働契約法", "第十九条第一項第二号", BUDGET_BYTES).paragraphs
    assert [(p.number, p.text[:12], [i.title for i in p.items]) for p in paragraph] == [
        (1, "有期労働契約であって次の", ["二"])
    ]
    second = statutes.article("労働契約法", "18条2項", BUDGET_BYTES)
    assert [p.number for p in second.paragraphs] == [2] and second.asked == "第十八条第二項"


def test_the_version_in_force_on_the_day_is_the_one_returned(statutes: StatuteSearch) -> None:
    """刑法235条 read 懲役 until 2025-05-31 and 拘禁刑 from 2025-06-01."""
    before = statutes.article("刑法", "235条", BUDGET_BYTES, date(2024, 5, 1))
    after = statutes.article("刑法", "235条", BUDGET_BYTES, date(2025, 6, 1))
    assert "懲役" in before.paragraphs[0].text and "拘禁刑" in after.paragraphs[0].text
    assert (before.version.effective, after.version.effective) == ("2023-07-13", "2025-06-01")
    assert [(v.effective, v.same_text) for v in before.versions] == [("2023-07-13", True), ("2025-06-01", False)]


def test_the_pre_2020_text_of_the_civil_code_is_read_on_a_day_before_the_reform(statutes: StatuteSearch) -> None:
    old = statutes.article("民法", "415条", BUDGET_BYTES, date(2019, 12, 1))
    assert "責めに帰すべき事由によって履行をすることができなくなったときも、同様とする" in old.paragraphs[0].text
    assert "文言が異なる版: 2020-04-01" in old.message


@pytest.mark.parametrize(
    "law",
    ["プロバイダ責任制限法", "情プラ法", "特定電気通信役務提供者の損害賠償責任の制限及び発信者情報の開示に関する法律"],
)
def test_a_renamed_law_is_one_law_under_either_title(statutes: StatuteSearch, law: str) -> None:
    old = statutes.article(law, "5条1項", BUDGET_BYTES, date(2023, 6, 1))
    assert old.law == "特定電気通信による情報の流通によって発生する権利侵害等への対処に関する法律"
    assert old.title_on_date == "特定電気通信役務提供者の損害賠償責任の制限及び発信者情報の開示に関する法律"
    assert old.caption == "（発信者情報の開示請求）"
    assert statutes.article(law, "5条", BUDGET_BYTES).title_on_date is None


def test_an_amending_laws_supplementary_article_is_named_by_that_law(statutes: StatuteSearch) -> None:
    answer = statutes.article("民法", "附則(平成29年法律第44号)第17条", BUDGET_BYTES)
    assert answer.article == "附則(平成29年法律第44号)第十七条"
    assert answer.caption == "（債務不履行の責任等に関する経過措置）"
    assert answer.cited_by_keywords == ""
    with pytest.raises(NotFound, match=r"附則\(平成29年法律第44号\)17条"):
        statutes.article("民法", "附則第17条", BUDGET_BYTES)


def test_an_article_with_no_is_read_in_kanji_and_arabic(statutes: StatuteSearch) -> None:
    for written in ("第230条の2", "第二百三十条の二", "230条の2"):
        assert statutes.article("刑法", written, BUDGET_BYTES).caption == "（公共の利害に関する場合の特例）"


def test_cited_by_keywords_name_the_article_after_each_name_of_the_law(statutes: StatuteSearch) -> None:
    keywords = statutes.article("情プラ法", "5条1項1号", BUDGET_BYTES).cited_by_keywords
    terms = keywords.split(" OR ")
    assert "プロバイダ責任制限法5条1項1号" in terms and "情プラ法5条1項1号" in terms
    assert "特定電気通信役務提供者の損害賠償責任の制限及び発信者情報の開示に関する法律5条1項1号" in terms
    assert statutes.article("刑法", "230条の2第1項", BUDGET_BYTES).cited_by_keywords == "刑法230条の2第1項"


def test_a_law_the_data_lacks_is_named_with_the_laws_a_small_collection_holds(statutes: StatuteSearch) -> None:
    with pytest.raises(NotFound, match="データの法令は 7 件です: .*民法.*刑法"):
        statutes.article("商法", "709条", BUDGET_BYTES)


def test_the_nearest_names_share_more_than_what_every_laws_name_holds(statutes: StatuteSearch) -> None:
    index = statutes._data.current()
    assert index.nearest_names("民放", 5) == ["民法"]
    assert index.nearest_names("商法", 5) == ["金融商品取引法"]  # 商 in common; not every law for its 法
    assert (
        index.nearest_names("プロバイダ法", 5)[0]
        == "特定電気通信による情報の流通によって発生する権利侵害等への対処に関する法律"
    )


def test_an_article_the_version_lacks_names_the_range_it_holds(statutes: StatuteSearch) -> None:
    with pytest.raises(NotFound, match="第一条〜第七百二十二条"):
        statutes.article("民法", "9999条", BUDGET_BYTES)
    with pytest.raises(NotFound, match="第3項はありません"):
        statutes.article("民法", "709条3項", BUDGET_BYTES)


def test_a_day_before_every_version_says_which_is_the_oldest(statutes: StatuteSearch) -> None:
    with pytest.raises(NotFound, match="最も古い版は 2019-07-01"):
        statutes.article("民法", "709条", BUDGET_BYTES, date(1990, 1, 1))


@pytest.mark.parametrize("written", ["abc", "第709条の", "条"])
def test_an_article_that_cannot_be_read_shows_the_writings_accepted(statutes: StatuteSearch, written: str) -> None:
    with pytest.raises(UnreadableReference, match="第七百九条、709条") as raised:
        statutes.article("民法", written, BUDGET_BYTES)
    assert raised.value.status_code == 400


def test_a_search_reads_the_versions_in_force_on_its_day(statutes: StatuteSearch) -> None:
    before = statutes.search("懲役", BUDGET_BYTES, day=date(2024, 1, 1))
    assert {hit.article for hit in before.hits} >= {"第百九十九条", "第二百三十五条"}
    assert statutes.search("懲役", BUDGET_BYTES, law="刑法").total == 0
    assert statutes.search("拘禁刑", BUDGET_BYTES, law="刑法").total >= 2


def test_a_search_ranks_by_occurrences_and_its_hits_are_readable_by_get_article(statutes: StatuteSearch) -> None:
    answer = statutes.search("損害賠償", BUDGET_BYTES, limit=3)
    counts = [hit.occurrences for hit in answer.hits]
    assert counts == sorted(counts, reverse=True) and answer.more
    for hit in answer.hits:
        assert statutes.article(hit.law, hit.article, BUDGET_BYTES).article == hit.article


def test_the_search_agrees_with_reading_every_article_in_force(statutes: StatuteSearch) -> None:
    """Index against scan: every expression finds exactly the in-force articles whose text holds it."""
    index = statutes._data.current()
    day = date(2024, 1, 1)
    in_force = [row for law_id in index.versions if (v := index.version_on(law_id, day)) for row in v.rows]
    texts = index.searched_texts(in_force)
    for keywords in ("損害 賠償", "懲役 OR 拘禁刑", "709条", "第七百九条", "発信者情報 -開示", "規定 1項", "の"):
        expression = parse(keywords)
        expected = sorted(row for row, text in texts.items() if expression.holds_in(text))
        found = index.search(expression, None, day, 1000)
        assert sorted(row for row, _ in found.found) == expected, keywords


def test_contents_list_every_level_with_its_first_and_last_article(statutes: StatuteSearch) -> None:
    contents = statutes.contents("民法", BUDGET_BYTES)
    headings = [(e.heading, e.depth, e.first_article, e.last_article) for e in contents.entries]
    assert ("第三編　債権", 1, "第四百十五条", "第七百二十二条") in headings
    assert ("第一款　債務不履行の責任等", 4, "第四百十五条", "第四百十五条") in headings
    assert headings[-1][0] == "附則（平成二九年六月二日法律第四四号）"


def test_a_long_article_is_cut_to_the_budget_and_says_so(tmp_path: Path) -> None:
    """Given a law whose article is far longer than the budget."""
    source = tmp_path / "laws.zip"
    with zipfile.ZipFile(source, "w") as archive:
        archive.writestr(
            f"{FOLDER}/{FOLDER}.xml", law(f"<MainProvision>{article('1', '第一条', '長い。' * 20_000)}</MainProvision>")
        )
    search = StatuteSearch(Settings(dataset_uris={"statutes": str(source)}, cache_dir=tmp_path / "cache"))
    answer = search.article("試験法", "1条", BUDGET_BYTES)
    assert not answer.complete and "省き" in answer.message
    assert embedded_bytes(answer.model_dump()) <= BUDGET_BYTES
    search.close()


def test_law_xml_too_large_to_prepare_in_the_function_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """Given a zip whose XML, by its listing, would take more memory to prepare than a 128 MB function has."""
    source = tmp_path / "laws.zip"
    with zipfile.ZipFile(source, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"{FOLDER}/{FOLDER}.xml", law("<MainProvision>" + " " * 40_000_000 + "</MainProvision>"))
    settings = Settings(dataset_uris={"statutes": str(source)}, cache_dir=tmp_path / "cache", memory_mb=128)
    search = StatuteSearch(settings)
    with pytest.raises(DataUnavailable, match="make upload-data"):
        search.article("試験法", "1条", BUDGET_BYTES)
    assert not list((tmp_path / "cache").rglob("*.duckdb"))


def test_every_article_name_contents_and_search_give_reads_that_article(statutes: StatuteSearch) -> None:
    """A name lawContents or searchStatutes gives, passed back to getArticle, is that article (a 附則's first article
    once named the main provision's)."""
    for title in ("民法", "刑法", "労働契約法"):
        for entry in statutes.contents(title, BUDGET_BYTES).entries:
            for name in (entry.first_article, entry.last_article):
                assert name is not None and statutes.article(title, name, BUDGET_BYTES).article == name
    for hit in statutes.search("施行 OR 損害 OR 期間", BUDGET_BYTES, limit=20).hits:
        assert statutes.article(hit.law, hit.article, BUDGET_BYTES).article == hit.article


def test_a_law_without_chapters_lists_its_main_provision(tmp_path: Path) -> None:
    source = tmp_path / "laws.zip"
    with zipfile.ZipFile(source, "w") as archive:
        body = f"<MainProvision>{article('1', '第一条')}{article('2', '第二条')}</MainProvision>"
        archive.writestr(f"{FOLDER}/{FOLDER}.xml", law(body))
    search = StatuteSearch(Settings(dataset_uris={"statutes": str(source)}, cache_dir=tmp_path / "cache"))
    contents = search.contents("試験法", BUDGET_BYTES)
    assert [(e.heading, e.first_article, e.last_article, e.articles) for e in contents.entries] == [
        ("本則", "第一条", "第二条", 2)
    ]
    assert contents.complete
    search.close()


def test_an_item_asked_without_its_paragraph_must_exist(statutes: StatuteSearch) -> None:
    assert [i.title for p in statutes.article("労契法", "19条2号", BUDGET_BYTES).paragraphs for i in p.items] == ["二"]
    with pytest.raises(NotFound, match="第5号はありません（号: 一・二）"):
        statutes.article("労契法", "19条5号", BUDGET_BYTES)


def test_one_folder_twice_is_one_version_and_odd_abbreviations_are_no_search_operators(tmp_path: Path) -> None:
    """Given the same folder under two top folders, and abbreviations that would read as operators."""
    source = tmp_path / "laws.zip"
    xml = law(f"<MainProvision>{article('1', '第一条')}</MainProvision>", abbrev="NOT 注入法,-除外法,良法")
    with zipfile.ZipFile(source, "w") as archive:
        for top in ("a", "b"):
            archive.writestr(f"{top}/{FOLDER}/{FOLDER}.xml", xml)
    search = StatuteSearch(Settings(dataset_uris={"statutes": str(source)}, cache_dir=tmp_path / "cache"))
    answer = search.article("良法", "1条", BUDGET_BYTES)
    assert len(answer.versions) == 1
    assert answer.cited_by_keywords.split(" OR ") == ["良法1条", "試験法1条"]
    search.close()
