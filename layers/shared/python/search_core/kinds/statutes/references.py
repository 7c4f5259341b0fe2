"""An article as a lawyer writes it (第七百九条, 709条, 第27条の5, 18条2項, 4条3項2号, 附則第1条) read into the
keys e-Gov's law XML gives it (Article Num 709, 27_5; Paragraph 2; Item 2), and a law number in any writing read
into one key.

Both are read after normalisation (fulltext/normalize.py), so kanji and Arabic numerals, full and half width, and the
old ノ are one writing.

>>> ArticleRef.read("第二十七条の五第一項第二号")
ArticleRef(article='27_5', paragraph=1, item='2', supplement=None)
>>> ArticleRef.read("附則（平成二九年六月二日法律第四四号）第十七条").supplement
'平成29年法律第44号'
>>> law_number_key("平成二九年六月二日法律第四四号"), law_number_key("平成29年法律第44号")
('平成29年法律第44号', '平成29年法律第44号')
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from search_core.fulltext.normalize import normalize

# A law number: era, year, perhaps the day it was promulgated (as 附則 labels write it), kind and number.
_LAW_NUMBER = re.compile(
    r"(?P<era>明治|大正|昭和|平成|令和)(?P<year>\d+|元)年(?:\d+月\d+日)?"
    r"(?P<kind>[^\d第()]{1,12}?)(?:第(?P<number>\d+)号)?"
)
_BRANCH = r"(?:の\d+)*"
_REFERENCE = re.compile(
    rf"(?:(?P<before>{_LAW_NUMBER.pattern.replace('?P<', '?P<b_')})?附則(?:\((?P<after>[^()]+)\))?)?"
    rf"(?:第?(?P<article>\d+)条(?P<branch>{_BRANCH}))?(?:第?(?P<paragraph>\d+)項)?"
    rf"(?:第?(?P<item>\d+)号(?P<item_branch>{_BRANCH}))?"
)
# What the answer shows an agent whose article could not be read.
ACCEPTED_WRITINGS = "第七百九条、709条、第27条の5、18条2項、4条3項2号、附則第1条、附則(平成29年法律第44号)第17条"


@dataclass(frozen=True)
class ArticleRef:
    """An article asked for: e-Gov's key of it (709, 27_5; 本則 or 附則 for paragraphs outside articles), perhaps one
    paragraph and one item, and which 附則 holds it: None for the main provision, "" for the law's own 附則, else the
    amending law's number (as law_number_key writes it)."""

    article: str
    paragraph: int | None = None
    item: str | None = None
    supplement: str | None = None

    @classmethod
    def read(cls, written: str) -> ArticleRef | None:
        """The article `written` names, or None if it names none."""
        text = compact(written).replace("附則第", "附則")
        if text.isdigit():
            return cls(text)
        if text == "本則":
            return cls(text)
        found = _REFERENCE.fullmatch(text)
        if found is None or (not any(found[name] for name in ("article", "paragraph", "item")) and "附則" not in text):
            return None
        supplement = None
        if "附則" in text:
            amending = found["after"] or (found["before"] and text[: text.index("附則")])
            supplement = law_number_key(amending) if amending else ""
            if supplement is None:
                return None
        article = f"{found['article'] or ''}{found['branch'] or ''}".replace("の", "_")
        if not article:
            article = "本則" if supplement is None else "附則"
        item = f"{found['item']}{found['item_branch']}".replace("の", "_") if found["item"] else None
        return cls(article, int(found["paragraph"]) if found["paragraph"] else None, item, supplement)

    def written(self, article_title: str) -> str:
        """The reference as the answer names it, from the article's name (its title as written), in the law's kanji.

        >>> ArticleRef("709", 1, "2_2").written("第七百九条")
        '第七百九条第一項第二号の二'
        """
        parts = [article_title]
        if self.paragraph is not None:
            parts.append(f"第{kanji_numeral(self.paragraph)}項")
        if self.item is not None:
            number, *branches = self.item.split("_")
            parts.append(f"第{kanji_numeral(int(number))}号" + "".join(f"の{kanji_numeral(int(b))}" for b in branches))
        return "".join(parts)

    @property
    def arabic(self) -> str:
        """The reference in Arabic numerals, as decisions and keywords write it (a 第 after a branch number, so that
        27条の5第1項 is not 27条の51項).

        >>> ArticleRef("27_5", 1).arabic, ArticleRef("709", 1, "2_2").arabic, ArticleRef("30_4", None, "2").arabic
        ('27条の5第1項', '709条1項2号の2', '30条の4第2号')
        """
        written = _branched(self.article, "条") if self.article[:1].isdigit() else ""
        for number, unit in ((self.paragraph, "項"), (self.item, "号")):
            if number is not None:
                part = _branched(str(number), unit)
                written += f"第{part}" if re.search(r"の\d+$", written) else part
        return written


def _branched(key: str, unit: str) -> str:
    number, *branches = key.split("_")
    return f"{number}{unit}" + "".join(f"の{branch}" for branch in branches)


def kanji_numeral(number: int) -> str:
    """A number as laws write it (四百十五, 二千三).

    >>> [kanji_numeral(n) for n in (1, 10, 15, 415, 1003, 2024)]
    ['一', '十', '十五', '四百十五', '千三', '二千二十四']
    """
    digits = "〇一二三四五六七八九"
    if number >= 10_000:  # no law numbers a paragraph or an item this far: written as it is
        return str(number)
    written = ""
    for value, unit in ((1000, "千"), (100, "百"), (10, "十")):
        count, number = divmod(number, value)
        if count:
            written += ("" if count == 1 else digits[count]) + unit
    return written + (digits[number] if number else "") or digits[0]


def compact(written: str) -> str:
    """`written` normalised, without spaces and invisible format characters (a zero-width space, a direction mark).

    >>> compact("\u200b第 七百九条\u200e")
    '第709条'
    """
    return "".join(char for char in normalize(written) if not char.isspace() and unicodedata.category(char) != "Cf")


def law_number_key(written: str) -> str | None:
    """A law number in one writing whatever its numerals, width and promulgation day (平成13年法律第137号), or None
    if `written` is not wholly one.

    >>> law_number_key("昭和二十一年憲法"), law_number_key("民法")
    ('昭和21年憲法', None)
    """
    found = _LAW_NUMBER.fullmatch(compact(written))
    if found is None:
        return None
    year = "1" if found["year"] == "元" else found["year"]
    number = f"第{found['number']}号" if found["number"] else ""
    return f"{found['era']}{year}年{found['kind']}{number}"
