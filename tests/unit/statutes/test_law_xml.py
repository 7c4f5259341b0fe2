"""One e-Gov law XML read into its articles, wherever they nest, and refused when it holds what no law holds."""

from __future__ import annotations

from datetime import date

import pytest

from search_core.kinds.statutes.egov.law_xml import MAX_DEPTH, LawXmlError, read_law

FOLDER = "999AC0000000001_20240401_506AC0000000009"


def law(body: str, title: str = "試験法", abbrev: str = "") -> bytes:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<Law Era="Reiwa" Year="6" Num="1" LawType="Act" Lang="ja"><LawNum>令和六年法律第一号</LawNum>
<LawBody><LawTitle Kana="しけんほう" Abbrev="{abbrev}">{title}</LawTitle>{body}</LawBody></Law>""".encode()


def article(num: str, title: str, text: str = "本文。", caption: str = "") -> str:
    caption_xml = f"<ArticleCaption>{caption}</ArticleCaption>" if caption else ""
    return (
        f'<Article Num="{num}">{caption_xml}<ArticleTitle>{title}</ArticleTitle>'
        f'<Paragraph Num="1"><ParagraphNum/><ParagraphSentence><Sentence Num="1">{text}</Sentence>'
        "</ParagraphSentence></Paragraph></Article>"
    )


def test_articles_are_found_at_every_depth_of_the_main_provision() -> None:
    """Given articles directly under MainProvision and under 編 > 章 > 節 > 款 > 目."""
    nested = (
        '<Part Num="1"><PartTitle>第一編　総則</PartTitle><Chapter Num="1"><ChapterTitle>第一章　通則</ChapterTitle>'
        '<Section Num="1"><SectionTitle>第一節　目的</SectionTitle><Subsection Num="1"><SubsectionTitle>第一款　甲'
        '</SubsectionTitle><Division Num="1"><DivisionTitle>第一目　乙</DivisionTitle>'
        f"{article('2', '第二条')}</Division></Subsection></Section></Chapter></Part>"
    )
    version = read_law(law(f"<MainProvision>{article('1', '第一条')}{nested}</MainProvision>"), FOLDER)
    assert [a.key for a in version.articles] == ["1", "2"]
    assert version.articles[1].place == ("第一編　総則", "第一章　通則", "第一節　目的", "第一款　甲", "第一目　乙")


def test_the_folder_gives_the_law_id_the_effective_date_and_the_amending_law() -> None:
    version = read_law(law("<MainProvision/>", abbrev="試法,試験"), FOLDER)
    assert (version.law_id, version.effective, version.amended_by) == (
        "999AC0000000001",
        date(2024, 4, 1),
        "506AC0000000009",
    )
    assert version.abbreviations == ("試法", "試験")
    assert read_law(law("<MainProvision/>"), "999AC0000000001_20240401_000000000000000").amended_by is None


def test_every_supplementary_provision_is_read_with_the_law_that_wrote_it() -> None:
    body = (
        f"<MainProvision>{article('1', '第一条')}</MainProvision>"
        f"<SupplProvision><SupplProvisionLabel>附　則</SupplProvisionLabel>{article('1', '第一条', '施行する。')}"
        "</SupplProvision>"
        '<SupplProvision AmendLawNum="令和七年三月一日法律第三号"><SupplProvisionLabel>附　則</SupplProvisionLabel>'
        '<Paragraph Num="1"><ParagraphNum/><ParagraphSentence><Sentence>この法律は、公布の日から施行する。</Sentence>'
        "</ParagraphSentence></Paragraph></SupplProvision>"
    )
    articles = read_law(law(body), FOLDER).articles
    assert [(a.key, a.supplement) for a in articles] == [("1", None), ("1", ""), ("附則", "令和七年三月一日法律第三号")]


def test_an_amendments_quoted_articles_are_not_articles_of_the_law() -> None:
    """An amending law quotes the provisions it writes into another law (NewProvision): those are text, not its own."""
    quoted = (
        '<Article Num="1"><ArticleTitle>第一条</ArticleTitle><Paragraph Num="1"><ParagraphNum/><ParagraphSentence>'
        "<Sentence>次のように改正する。</Sentence></ParagraphSentence><AmendProvision><AmendProvisionSentence>"
        "<Sentence>第五条の次に一条を加える。</Sentence></AmendProvisionSentence><NewProvision>"
        f"{article('5_2', '第五条の二', '加えた条。')}</NewProvision></AmendProvision></Paragraph></Article>"
    )
    articles = read_law(law(f"<MainProvision>{quoted}</MainProvision>"), FOLDER).articles
    assert [a.key for a in articles] == ["1"]
    assert "第五条の次に一条を加える。" in articles[0].paragraphs[0].text


def test_ruby_readings_are_left_out_and_items_and_subitems_keep_their_titles() -> None:
    text = "<Ruby>瑕<Rt>か</Rt></Ruby><Ruby>疵<Rt>し</Rt></Ruby>がある。"
    items = (
        '<Item Num="1"><ItemTitle>一</ItemTitle><ItemSentence><Column Num="1"><Sentence>用語</Sentence></Column>'
        '<Column Num="2"><Sentence>意味</Sentence></Column></ItemSentence><Subitem1 Num="1"><Subitem1Title>イ'
        "</Subitem1Title><Subitem1Sentence><Sentence>細目</Sentence></Subitem1Sentence></Subitem1></Item>"
    )
    xml = (
        '<MainProvision><Article Num="2"><ArticleTitle>第二条</ArticleTitle><Paragraph Num="1"><ParagraphNum/>'
        f"<ParagraphSentence><Sentence>{text}</Sentence></ParagraphSentence>{items}</Paragraph></Article></MainProvision>"
    )
    paragraph = read_law(law(xml), FOLDER).articles[0].paragraphs[0]
    assert paragraph.text == "瑕疵がある。"
    assert (paragraph.items[0].title, paragraph.items[0].text) == ("一", "用語　意味\nイ　細目")


@pytest.mark.parametrize(
    "declaration",
    [
        '<!DOCTYPE Law [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>',
        '<!DOCTYPE Law [<!ENTITY secret SYSTEM "file:///etc/passwd">]>',
        '<!DOCTYPE Law SYSTEM "http://example.com/law.dtd">',
        '<!DOCTYPE Law [<!ENTITY % remote SYSTEM "http://example.com/x"> %remote;]>',
    ],
)
def test_a_doctype_is_refused_before_any_entity_is_declared_or_fetched(declaration: str) -> None:
    xml = law("<MainProvision/>").replace(b"<Law ", declaration.encode() + b"\n<Law ", 1)
    with pytest.raises(LawXmlError, match="2 行目: DOCTYPE"):
        read_law(xml, FOLDER)


def test_an_undeclared_entity_is_an_error_naming_the_file_and_line() -> None:
    with pytest.raises(LawXmlError, match=f"「{FOLDER}/{FOLDER}.xml」の 4 行目"):
        read_law(law("\n<MainProvision>&secret;</MainProvision>"), FOLDER)


def test_malformed_xml_names_the_file_and_line() -> None:
    with pytest.raises(LawXmlError, match=r"の 4 行目を XML として読めません: mismatched tag"):
        read_law(law("<MainProvision>\n</Article>"), FOLDER)


def test_nesting_deeper_than_any_law_is_refused() -> None:
    deep = "<Sentence>" * MAX_DEPTH + "x" + "</Sentence>" * MAX_DEPTH
    with pytest.raises(LawXmlError, match="入れ子が深すぎます"):
        read_law(law(f"<MainProvision>{deep}</MainProvision>"), FOLDER)


@pytest.mark.parametrize("folder", ["129AC0000000089", "x_20240101_y", "129AC0000000089_20241301_429AC0000000044"])
def test_a_folder_not_named_as_e_gov_names_them_is_refused(folder: str) -> None:
    with pytest.raises(LawXmlError, match="フォルダ名"):
        read_law(law("<MainProvision/>"), folder)


def test_a_file_that_is_not_a_law_is_refused() -> None:
    with pytest.raises(LawXmlError, match="法令 XML"):
        read_law(b"<Other/>", FOLDER)


def test_a_range_of_deleted_articles_is_each_of_its_articles() -> None:
    deleted = (
        '<Article Num="7:9"><ArticleTitle>第七条から第九条まで</ArticleTitle><Paragraph Num="1"><ParagraphNum/>'
        "<ParagraphSentence><Sentence>削除</Sentence></ParagraphSentence></Paragraph></Article>"
    )
    articles = read_law(law(f"<MainProvision>{deleted}{article('10', '第十条')}</MainProvision>"), FOLDER).articles
    assert [(a.key, a.title) for a in articles][:3] == [(str(n), "第七条から第九条まで") for n in (7, 8, 9)]
    assert articles[1].paragraphs[0].text == "削除"


@pytest.mark.parametrize("encoding", ["ISO-8859-1", "Shift_JIS", "EUC-JP", "US-ASCII"])
def test_a_law_declared_in_another_encoding_than_utf8_is_refused(encoding: str) -> None:
    xml = law("<MainProvision/>").replace(b'encoding="UTF-8"', f'encoding="{encoding}"'.encode())
    with pytest.raises(LawXmlError, match=f"文字コード「{encoding}」"):
        read_law(xml, FOLDER)


def test_a_range_with_a_long_text_is_one_article_not_a_thousand_copies() -> None:
    long_range = (
        '<Article Num="1:1000"><ArticleTitle>第一条から第千条まで</ArticleTitle><Paragraph Num="1"><ParagraphNum/>'
        f"<ParagraphSentence><Sentence>{'長' * 5_000}</Sentence></ParagraphSentence></Paragraph></Article>"
    )
    articles = read_law(law(f"<MainProvision>{long_range}</MainProvision>"), FOLDER).articles
    assert [a.key for a in articles] == ["1:1000"]


def test_abbreviations_are_as_many_and_as_long_as_real_ones() -> None:
    many = ",".join(f"略{n}" for n in range(1_000)) + "," + "長" * 500
    assert len(read_law(law("<MainProvision/>", abbrev=many), FOLDER).abbreviations) == 10
