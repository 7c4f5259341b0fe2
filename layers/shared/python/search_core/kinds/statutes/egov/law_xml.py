"""One e-Gov law XML (法令標準XML) read into a LawVersion, refusing what a law never holds.

The file comes from whoever uploads the data, so the reader takes no chances: no DOCTYPE at all (so no entity can be
declared, expanded or fetched: no billion laughs, no XXE), no nesting deeper than a law's, and an error that names
the file and its line. Articles are found at any depth of the main provision (編 > 章 > 節 > 款 > 目) and in every
附則, one per amending law; an amendment's quoted provisions (AmendProvision) are text of the article quoting them,
never articles of this law.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from xml.parsers import expat

from search_core.kinds.statutes.models import Article, Item, LawVersion, Paragraph

# The most articles one range of deleted articles stands for (第七条から第九条まで): more than any law deletes at once.
MAX_RANGE = 1_000
MAX_RANGE_TEXT = 200
# The most abbreviations of one law read, and the longest: several times real ones.
MAX_ABBREVIATIONS, MAX_NAME_CHARS = 10, 60
# Deeper than any law nests (Law > LawBody > MainProvision > Part > … > Subitem10 > TableStruct > … is under 40).
MAX_DEPTH = 100
_CONTAINERS = {
    "Part": "PartTitle",
    "Chapter": "ChapterTitle",
    "Section": "SectionTitle",
    "Subsection": "SubsectionTitle",
    "Division": "DivisionTitle",
}
# Elements whose text is not the provision's: a ruby's reading, the titles read separately.
_NOT_TEXT = {"Rt", "ArticleCaption", "ArticleTitle", "ParagraphNum", "ParagraphCaption", "ItemTitle"}
# The encodings a law may declare: e-Gov's UTF-8, and UTF-16, which expat tells by its byte-order mark.
_ENCODING = re.compile(rb"\s*<\?xml[^>]*?encoding\s*=\s*[\"']([^\"']{1,40})[\"']")
_ENCODINGS = (b"utf-8", b"utf8", b"utf-16", b"utf-16le", b"utf-16be")
# The indentation between elements: never a law's text (a full-width space, which is, is kept).
_LAYOUT = " \t\r\n"
_SUBITEM = re.compile(r"Subitem(\d+)")
# A folder of the bulk download: law id, effective date, amending law id (or zeros).
FOLDER = re.compile(r"(?P<law_id>[0-9A-Za-z]{10,20})_(?P<date>\d{8})_(?P<amended_by>[0-9A-Za-z]{10,20})")
_ORIGINAL = re.compile("0+")


class LawXmlError(ValueError):
    """A law XML that cannot be read: `message` says which file and line, in the words the agent and the uploader
    read."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def read_law(data: bytes, folder: str) -> LawVersion:
    """The law version in `data`, the XML of the bulk-download folder `folder` (which gives its id and date)."""
    named = FOLDER.fullmatch(folder)
    if named is None:
        raise LawXmlError(f"フォルダ名「{folder[:120]}」が e-Gov の形式（法令ID_施行日_改正法令ID）ではありません。")
    try:
        effective = date(int(named["date"][:4]), int(named["date"][4:6]), int(named["date"][6:]))
    except ValueError:
        raise LawXmlError(f"フォルダ名「{folder}」の施行日が日付ではありません。") from None
    root = parse_xml(data, f"{folder}/{folder}.xml")
    body = root.find("LawBody")
    if root.tag != "Law" or body is None:
        raise LawXmlError(f"「{folder}/{folder}.xml」は法令 XML（<Law> と <LawBody>）ではありません。")
    title = body.find("LawTitle")
    amended_by = named["amended_by"]
    return LawVersion(
        law_id=named["law_id"],
        effective=effective,
        amended_by=None if _ORIGINAL.fullmatch(amended_by) else amended_by,
        law_num=_text(root.find("LawNum")),
        title=_text(title),
        abbreviations=_abbreviations(title),
        law_type=root.get("LawType", ""),
        articles=tuple(_articles(body)),
    )


def parse_xml(data: bytes, name: str) -> ET.Element:
    """The element tree of `data`, read by expat with every declaration refused; `name` is the file the errors name."""
    builder = ET.TreeBuilder()
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    depth = [0]

    def start(tag: str, attributes: dict[str, str]) -> None:
        depth[0] += 1
        if depth[0] > MAX_DEPTH:
            raise LawXmlError(f"「{name}」の {parser.CurrentLineNumber} 行目: 要素の入れ子が深すぎます。")
        builder.start(tag, attributes)

    def end(tag: str) -> None:
        depth[0] -= 1
        builder.end(tag)

    def refused(*_: object) -> int:
        raise LawXmlError(
            f"「{name}」の {parser.CurrentLineNumber} 行目: DOCTYPE や実体の宣言は法令 XML に不要なため受け付けません。"
        )

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = builder.data
    parser.StartDoctypeDeclHandler = refused
    parser.EntityDeclHandler = refused
    parser.ExternalEntityRefHandler = refused
    _check_encoding(data, name)
    try:
        parser.Parse(data, True)
    except expat.ExpatError as error:
        reason = expat.errors.messages.get(error.code, "XML として読めません")
        raise LawXmlError(f"「{name}」の {error.lineno} 行目を XML として読めません: {reason}") from None
    except (ValueError, LookupError) as error:  # an encoding expat cannot read
        raise LawXmlError(f"「{name}」を XML として読めません: {str(error)[:200]}") from None
    return builder.close()


def _check_encoding(data: bytes, name: str) -> None:
    """e-Gov writes its laws in UTF-8: a law declared in another encoding (Latin-1 would be read as garbled text
    without an error) is refused. UTF-16 with its mark is read as expat reads it."""
    declared = _ENCODING.match(data.removeprefix(b"\xef\xbb\xbf")[:200])
    if declared and declared[1].lower().replace(b"_", b"-") not in _ENCODINGS:
        raise LawXmlError(
            f"「{name}」の文字コード「{declared[1].decode('ascii', 'replace')}」は読みません（法令 XML は UTF-8）。"
        )


def _abbreviations(title: ET.Element | None) -> tuple[str, ...]:
    """e-Gov's abbreviations of a law, as many and as long as real ones are (a few short names)."""
    written = "" if title is None else title.get("Abbrev", "")
    names = [name.strip() for name in re.split("[,、，]", written[: MAX_ABBREVIATIONS * MAX_NAME_CHARS])]
    return tuple(name for name in names if 0 < len(name) <= MAX_NAME_CHARS)[:MAX_ABBREVIATIONS]


def _articles(body: ET.Element) -> Iterator[Article]:
    for part in body:
        if part.tag == "MainProvision":
            yield from _provision(part, (), None, "本則")
        elif part.tag == "SupplProvision":
            supplement = part.get("AmendLawNum", "").strip()
            yield from _provision(part, (), supplement, "附則")


def _provision(element: ET.Element, place: tuple[str, ...], supplement: str | None, name: str) -> Iterator[Article]:
    """The articles under `element` at any depth of its containers, and its paragraphs outside articles as one
    provision named `name` (a law, or a 附則, of paragraphs only)."""
    loose: list[Paragraph] = []
    for child in element:
        if child.tag == "Article":
            yield from _articles_of(child, place, supplement)
        elif child.tag in _CONTAINERS:
            yield from _provision(child, (*place, _text(child.find(_CONTAINERS[child.tag]))), supplement, name)
        elif child.tag == "Paragraph":
            loose.append(_paragraph(child, len(loose) + 1))
    if loose:
        yield Article(name, name, None, place, tuple(loose), supplement)


def _articles_of(element: ET.Element, place: tuple[str, ...], supplement: str | None) -> Iterator[Article]:
    """The article, or each article of a range e-Gov writes as one (Num="7:9", 第七条から第九条まで　削除), so that
    each number of the range is found."""
    article = _article(element, place, supplement)
    first, colon, last = article.key.partition(":")
    numbered = colon and first.isdigit() and last.isdigit() and 0 < int(last) - int(first) <= MAX_RANGE
    if not numbered or len(article.text) > MAX_RANGE_TEXT:  # a range is deleted articles (削除), never a long text
        yield article
        return
    for number in range(int(first), int(last) + 1):
        yield replace(article, key=str(number))


def _article(element: ET.Element, place: tuple[str, ...], supplement: str | None) -> Article:
    paragraphs = [_paragraph(child, number) for number, child in enumerate(element.iterfind("Paragraph"), 1)]
    caption = _text(element.find("ArticleCaption")) or None
    return Article(
        element.get("Num", ""), _text(element.find("ArticleTitle")), caption, place, tuple(paragraphs), supplement
    )


def _paragraph(element: ET.Element, position: int) -> Paragraph:
    number = element.get("Num", "")
    sentences = [_text(child) for child in element if child.tag not in ("Item", "ParagraphNum", "ParagraphCaption")]
    items = tuple(
        Item(child.get("Num", ""), _text(child.find("ItemTitle")), _text(child)) for child in element.iterfind("Item")
    )
    return Paragraph(
        int(number) if number.isdigit() else position,
        _text(element.find("ParagraphNum")),
        "\n".join(sentence for sentence in sentences if sentence),
        items,
    )


def _text(element: ET.Element | None) -> str:
    """The element's text as read: a ruby without its reading, columns apart by a space, sub-items and table rows
    on lines of their own (each sub-item after its title)."""
    if element is None:
        return ""
    return "".join(_pieces(element)).strip()


def _pieces(element: ET.Element) -> Iterator[str]:
    if element.text:
        yield element.text.strip(_LAYOUT)
    for child in element:
        if child.tag not in _NOT_TEXT:
            if child.tag == "Column" and child is not element[0]:
                yield "　"
            if _SUBITEM.fullmatch(child.tag) or child.tag in ("TableRow", "ListSentence", "Sublist1"):
                yield "\n"
            if _SUBITEM.fullmatch(child.tag[: -len("Title")] if child.tag.endswith("Title") else ""):
                yield from _pieces(child)
                yield "　"
            else:
                yield from _pieces(child)
        if child.tail:
            yield child.tail.strip(_LAYOUT)
