"""A synthetic corpus of Japanese statutes in e-Gov's law XML (法令標準XML), at the scale of all laws in force.

    .venv/bin/python -m tooling.statute_corpus build/bench/statutes --laws 9000        # a folder
    .venv/bin/python -m tooling.statute_corpus build/bench/statutes.zip --laws 9000    # a zip of the same folders

Laid out as e-Gov's bulk download: a folder per revision of a law, `<LawId>_<YYYYMMDD>_<AmendingLawId>/` (the day
the revision took effect, and the act that made it or 000000000000000), holding one file of that name plus `.xml`.

- sizes: articles per law are log-normal (median 13: two laws in three have 5 to 40) with a tail of codes up to
  1,500; about one law in twenty is written in paragraphs only, with no articles;
- structure as e-Gov writes it: chapters (and a table of contents) from 14 articles, then sections, subsections and
  divisions, parts in the largest codes; branch articles (Num="12_2", 第十二条の二); deleted articles kept in place
  with the one sentence 削除 (some a range, Num="7:9"); items, branch items and sub-items; ただし書 and 後段 as a
  second Sentence; the law's own supplementary provision, then one per amending act (AmendLawNum, often Extract);
- revisions: a law in twelve has two or three, each later one rewriting a few paragraphs, adding a branch article
  and deleting one; one such law in fifty is renamed (its LawTitle changes);
- prose: drawn word by word from wordfreq's Japanese list as tooling/case_corpus.py draws it, set in the sentence
  shapes of statutes (「…した者は、…に処する。」, 「前項の規定は、…について準用する。」, citations of the law's
  articles in kanji), with each law's own words, defined terms and authorities; Ruby and Sup inline, rarely.

9,000 laws make 9,974 files holding 313,061 articles (about 310 characters each), 714 MB of XML or a 135 MB zip,
in about 20 s (35 s zipped) on 2 cores. Deterministic for a given seed and number of laws, to the zip's bytes;
written file by file (the zip entry by entry), never whole in memory.
"""

from __future__ import annotations

import argparse
import bisect
import re
import shutil
import sys
import time
import zipfile
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import TypeVar

import numpy as np
from tooling.case_corpus import Vocabulary, kanji_number

SEED = 20261122
MEDIAN_ARTICLES, SIGMA, MAX_ARTICLES = 13, 1.1, 1_500
TAIL_SHARE, TAIL_FROM = 0.012, 150  # codes: articles log-uniform from TAIL_FROM to MAX_ARTICLES
# A law this short is written in paragraphs, with no articles, this often: about one law in twenty in all.
PARAGRAPHS_ONLY_UP_TO, PARAGRAPHS_ONLY_SHARE = 6, 0.2
ACT_SHARE = 0.45  # the rest are cabinet orders
# Of the laws amended since they took effect (three in four), this share has more than one revision written.
VERSIONED_SHARE, THREE_VERSIONS_SHARE, RENAMED_SHARE = 0.1, 1 / 3, 1 / 50
YEARS_PER_AMENDMENT = 12
COMMA_SHARE = 0.06
PARAGRAPH_COUNTS = (0.4, 0.65, 0.8, 0.9)  # an article has 1 paragraph below the first share, 2 below the next …
T = TypeVar("T")

_HIRAGANA = re.compile(r"[\u3041-\u309fー]+")
# A law's own words (its subject, the names in its terms and chapters) are the rarer nouns of the list: runs of kanji
# or of katakana (a rare run of hiragana is mostly an inflected verb, which no title is made of).
_LAW_WORD_RANKS = (20_000, 200_000)
_NOUN = re.compile(r"[\u4e00-\u9fff々]{2,}|[\u30a0-\u30ffー]{3,}")
_SLOT = re.compile(r"\{(\w)\}")
WRITING = 'WritingMode="vertical"'


@dataclass(frozen=True)
class Era:
    name: str  # the Era attribute
    kanji: str
    digit: int  # the first digit of a LawId
    start: date
    share: float  # of the laws in force promulgated in it


ERAS = (
    Era("Meiji", "明治", 1, date(1868, 10, 23), 0.005),
    Era("Taisho", "大正", 2, date(1912, 7, 30), 0.005),
    Era("Showa", "昭和", 3, date(1926, 12, 25), 0.42),
    Era("Heisei", "平成", 4, date(1989, 1, 8), 0.45),
    Era("Reiwa", "令和", 5, date(2019, 5, 1), 0.12),
)
LAST_PROMULGATION = date(2025, 6, 30)
# Cabinet orders (政令) and the amending acts drawn here are made under the Constitution, in force from this day.
CONSTITUTION = date(1947, 5, 3)

# Groups of articles: (the fewest articles a law or group needs to be split into them, the chance it is, articles per
# group from, to); and which kinds a group may hold, as the schema allows (a Part holds Chapters, never Sections).
SPLITS = {
    "Part": (400, 0.8, 150, 450),
    "Chapter": (14, 0.75, 6, 40),
    "Section": (24, 0.5, 5, 20),
    "Subsection": (16, 0.35, 4, 12),
    "Division": (10, 0.3, 3, 8),
}
INNER_KINDS = {
    "MainProvision": ("Part", "Chapter"),
    "Part": ("Chapter",),
    "Chapter": ("Section",),
    "Section": ("Subsection", "Division"),
    "Subsection": ("Division",),
    "Division": (),
}
UNITS = {"Part": "編", "Chapter": "章", "Section": "節", "Subsection": "款", "Division": "目"}
PENALTY_CHAPTER_SHARE, MISCELLANEOUS_SHARE = 0.7, 0.6

AUTHORITIES = (
    "主務大臣", "内閣総理大臣", "総務大臣", "法務大臣", "財務大臣", "文部科学大臣", "厚生労働大臣", "農林水産大臣",
    "経済産業大臣", "国土交通大臣", "環境大臣", "都道府県知事", "市町村長", "国", "地方公共団体", "委員会", "長官",
)  # fmt: skip
TERM_SUFFIXES = (
    "事業者", "事業", "業務", "計画", "施設", "機関", "者", "物", "審議会", "協議会", "指定法人", "認定事業者",
    "登録機関", "基本方針", "区域", "設備", "製品", "資金", "情報", "団体",
)  # fmt: skip
TITLE_AIMS = ("推進", "促進", "規制", "保護", "整備", "適正化", "振興", "確保", "防止", "特例", "管理", "支援")
ACT_TITLES = ("{w}法", "{w}{x}法", "{w}に関する法律", "{w}の{x}に関する法律", "{w}等の{x}に関する法律", "{w}特別措置法")
ORDER_TITLES = ("{w}の{x}に関する政令", "{w}令", "{w}等の{x}に関する政令")
CAPTIONS = (
    "届出", "指定", "登録", "申請", "報告", "命令", "勧告", "公表", "手数料", "基本方針", "権限の委任", "経過措置",
    "適用除外", "立入検査", "変更", "取消し", "義務", "届出等", "秘密保持義務", "指定の取消し等", "援助", "協力",
)  # fmt: skip
SUPPL_CAPTIONS = ("経過措置", "罰則に関する経過措置", "政令への委任", "検討", "調整規定")
# Sentences by the role of their article. Slots: {a} {b} authorities, {t} a defined term, {w} a word of this law,
# {p} a short run of prose, {q} a long one, {c} a citation of an article, {k} この法律 or この政令, {o} the order
# matters are delegated to, {l} another law, {n} a small number, {y} a term of imprisonment, {m} a fine, {j} its kind.
PROVISIONS = (
    "{a}は、{p}について、{q}しなければならない。",
    "{a}は、{p}ときは、{q}することができる。",
    "{t}は、{q}ものとする。",
    "{c}に規定する{t}は、{q}とする。",
    "前項の規定は、{t}について準用する。",
    "{a}は、{c}の規定による{t}の{p}をしようとするときは、あらかじめ、{b}に協議しなければならない。",
    "{p}場合において、{q}ときは、{a}は、{p}を{t}に通知するものとする。",
    "{t}の{p}に関し必要な事項は、{o}で定める。",
    "{t}は、{c}の規定にかかわらず、{q}ことができる。",
    "{a}は、{t}に対し、{q}について報告を求めることができる。",
    "{t}は、{o}で定めるところにより、{p}を{a}に届け出なければならない。",
    "{a}は、{t}が{c}の規定に違反していると認めるときは、当該{t}に対し、{q}を命ずることができる。",
    "{t}は、{q}よう努めなければならない。",
    "{c}の規定により{a}が{p}をする場合には、{q}ものとする。",
    "{l}{c}の規定は、{t}の{p}について準用する。",
)
PURPOSES = (
    "{k}は、{q}に鑑み、{t}に関し必要な事項を定めることにより、{p}を図り、もって{q}に資することを目的とする。",
    "{k}は、{p}の{t}について、{q}を定めるものとする。",
    "{k}は、{q}ため、{t}の{p}について定めることを目的とする。",
)
ORDER_PURPOSES = (
    "{k}は、{l}の施行に関し必要な事項を定めるものとする。",
    "{l}{c}の政令で定める{t}は、{q}とする。",
)
DEFINITIONS = ("{k}において「{t}」とは、{q}をいう。", "{k}において「{w}」とは、{t}であって、{q}ものをいう。")
PENALTIES = (
    "{c}の規定に違反した者は、{m}以下の罰金に処する。",
    "{c}の規定による命令に違反した者は、{y}以下の{j}若しくは{m}以下の罰金に処し、又はこれを併科する。",
    "{p}者は、{m}以下の過料に処する。",
    "法人の代表者又は法人若しくは人の代理人、使用人その他の従業者が、その法人又は人の業務に関し、前{n}条の違反行為を"
    "したときは、行為者を罰するほか、その法人又は人に対して各本条の罰金刑を科する。",
)
ITEM_LEADS = {
    "general": (
        "{a}は、次に掲げる事項を{t}に通知しなければならない。",
        "次の各号のいずれかに該当する者は、{t}となることができない。",
        "{t}は、次に掲げる{w}について、{p}を定めるものとする。",
        "{a}は、{t}が次の各号のいずれかに該当するときは、{c}の{w}を取り消すことができる。",
    ),
    "definition": ("{k}において、次の各号に掲げる用語の意義は、当該各号に定めるところによる。",),
    "penalty": ("次の各号のいずれかに該当する者は、{y}以下の{j}若しくは{m}以下の罰金に処し、又はこれを併科する。",),
}
ITEMS = {
    "general": ("{p}", "{p}に関すること。", "{c}に規定する{t}", "{p}の{t}", "{q}者", "{t}の名称及び住所"),
    "penalty": ("{c}の規定に違反して{p}者", "{c}の規定による{w}をせず、又は虚偽の{w}をした者", "{q}者"),
}
LAST_ITEM = "前各号に掲げるもののほか、{o}で定める事項"
SUBITEMS = ("{p}", "{p}である{t}", "{c}に規定する{w}")
PROVISOS = (
    "ただし、{p}ときは、この限りでない。",
    "ただし、{q}場合は、{c}の規定を適用しない。",
    "ただし、{t}については、{o}で定める{p}に限る。",
    "ただし、{p}については、{a}の承認を受けなければならない。",
)
LATTER = ("この場合において、{a}は、{q}ものとする。", "この場合において、{c}中「{w}」とあるのは、「{w}」とする。")
ENACTMENTS = ("{k}は、{d}から施行する。", "{k}は、公布の日から施行する。",
              "{k}は、公布の日から起算して{n}月を超えない範囲内において政令で定める日から施行する。")  # fmt: skip
TRANSITIONS = (
    "{k}の施行前にした行為に対する罰則の適用については、なお従前の例による。",
    "{k}の施行の際現に{p}{t}については、{c}の規定にかかわらず、なお従前の例による。",
    "前条に定めるもののほか、{k}の施行に関し必要な経過措置は、政令で定める。",
    "政府は、{k}の施行後{n}年を目途として、{q}について検討を加え、その結果に基づいて必要な措置を講ずるものとする。",
)
RUBIES = (("濫", "らん", "用"), ("罹", "り", "患"), ("毀", "き", "損"), ("賄", "わい", "賂"), ("瑕", "か", "疵"),
          ("塡", "てん", "補"), ("逓", "てい", "減"), ("拿", "だ", "捕"))  # fmt: skip
POWERS = ("二", "三", "六", "マイナス三", "マイナス六")


def kanji(number: int) -> str:
    """A number as statutes write it, to the thousands.

    >>> kanji(1050), kanji(2001), kanji(230)
    ('千五十', '二千一', '二百三十')
    """
    thousands, rest = divmod(number, 1000)
    return (kanji_number(thousands) if thousands > 1 else "") + ("千" if thousands else "") + kanji_number(rest)


def kanji_digits(number: int) -> str:
    """A number digit by digit, as AmendLawNum writes it.

    >>> kanji_digits(102)
    '一〇二'
    """
    return str(number).translate(str.maketrans("0123456789", "〇一二三四五六七八九"))


def full_width(number: int) -> str:
    return str(number).translate(str.maketrans("0123456789", "０１２３４５６７８９"))


def numbered(num: str, unit: str) -> str:
    """The title of a numbered unit (条, 章, 節 …), its branches joined by の.

    >>> numbered("230_2", "条"), numbered("3", "章")
    ('第二百三十条の二', '第三章')
    """
    first, *branches = num.split("_")
    return f"第{kanji(int(first))}{unit}" + "".join(f"の{kanji(int(b))}" for b in branches)


def article_title(num: str) -> str:
    """An ArticleTitle; a range of articles deleted together reads 第七条から第九条まで.

    >>> article_title("12_2"), article_title("7:9")
    ('第十二条の二', '第七条から第九条まで')
    """
    first, _, last = num.partition(":")
    return f"{numbered(first, '条')}から{numbered(last, '条')}まで" if last else numbered(first, "条")


def era_of(day: date) -> tuple[Era, int]:
    era = next(e for e in reversed(ERAS) if e.start <= day)
    return era, day.year - era.start.year + 1


def era_year(year: int, spell: Callable[[int], str]) -> str:
    return "元" if year == 1 else spell(year)


def japanese_date(day: date) -> str:
    """A day as statutes write it.

    >>> japanese_date(date(2020, 4, 1))
    '令和二年四月一日'
    """
    era, year = era_of(day)
    return f"{era.kanji}{era_year(year, kanji)}年{kanji(day.month)}月{kanji(day.day)}日"


class Dice:
    """Uniform draws taken from the generator in blocks: one numpy call per draw would cost more than the statutes."""

    BLOCK = 1 << 16

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.block: list[float] = []
        self.at = 0

    def random(self) -> float:
        if self.at == len(self.block):
            self.block, self.at = self.rng.random(self.BLOCK).tolist(), 0
        self.at += 1
        return self.block[self.at - 1]

    def between(self, low: int, high: int) -> int:
        """From low to high, both included."""
        return low + int(self.random() * (high - low + 1))

    def chance(self, share: float) -> bool:
        return self.random() < share

    def pick(self, options: Sequence[T]) -> T:
        return options[int(self.random() * len(options))]

    def split(self, items: list[T], count: int) -> list[list[T]]:
        """items in count runs of random lengths, none empty."""
        cuts = sorted(int(c) + 1 for c in self.rng.choice(len(items) - 1, min(count, len(items)) - 1, replace=False))
        return [items[a:b] for a, b in zip([0, *cuts], [*cuts, len(items)], strict=True)]


class Prose:
    """Runs of words drawn from wordfreq's Japanese list by their frequency, a million at a time, with commas."""

    BATCH = 1 << 20

    def __init__(self, rng: np.random.Generator, dice: Dice) -> None:
        self.rng, self.dice = rng, dice
        self.vocabulary = Vocabulary.japanese()
        self.nouns = [w for w in self.vocabulary.words[slice(*_LAW_WORD_RANKS)] if _NOUN.fullmatch(w)]
        self.hiragana = [w for w in self.vocabulary.words if _HIRAGANA.fullmatch(w)]
        self.words: list[str] = []
        self.at = 0

    def run(self, fewest: int, most: int) -> str:
        count = self.dice.between(fewest, most)
        if self.at + count > len(self.words):
            self.words, self.at = self.vocabulary.draw(self.rng, self.BATCH), 0
            for place in np.flatnonzero(self.rng.random(self.BATCH) < COMMA_SHARE):
                self.words[place] += "、"
        self.at += count
        return "".join(self.words[self.at - count : self.at]).strip("、")

    def reading(self, chars: int) -> str:
        """Hiragana of about chars characters, to stand for a title's reading."""
        text = ""
        while len(text) < chars:
            text += self.dice.pick(self.hiragana)
        return text


@dataclass(frozen=True)
class LawNumber:
    era: Era
    year: int
    act: bool  # or a cabinet order
    num: int
    promulgated: date

    @property
    def law_id(self) -> str:
        """The id e-Gov names the law's folders by: era, year, AC (act) or CO (cabinet order), number.

        >>> LawNumber(ERAS[3], 15, True, 57, date(2003, 5, 30)).law_id
        '415AC0000000057'
        """
        return f"{self.era.digit}{self.year:02d}{'AC' if self.act else 'CO'}{self.num:010d}"

    @property
    def text(self) -> str:
        """As LawNum writes it: 平成十五年法律第五十七号."""
        return f"{self.era.kanji}{era_year(self.year, kanji)}年{self.kind}第{kanji(self.num)}号"

    @property
    def amend_text(self) -> str:
        """As AmendLawNum writes it: 令和二年六月一二日法律第四四号."""
        day = self.promulgated
        return (
            f"{self.era.kanji}{era_year(self.year, kanji_digits)}年{kanji_digits(day.month)}月"
            f"{kanji_digits(day.day)}日{self.kind}第{kanji_digits(self.num)}号"
        )

    @property
    def kind(self) -> str:
        return "法律" if self.act else "政令"


@dataclass(frozen=True)
class Amendment:
    number: LawNumber
    effective: date


class Registry:
    """Law numbers, unique by era, year and kind, for the laws and for the acts that amend them."""

    def __init__(self, dice: Dice) -> None:
        self.dice = dice
        self.taken: set[tuple[int, int, bool, int]] = set()

    def promulgation(self) -> date:
        """A day in an era drawn by the eras' shares of the laws in force."""
        weights = [e.share for e in ERAS]
        draw, index = self.dice.random() * sum(weights), 0
        while draw >= weights[index] and index < len(ERAS) - 1:
            draw, index = draw - weights[index], index + 1
        end = ERAS[index + 1].start if index + 1 < len(ERAS) else LAST_PROMULGATION
        return date.fromordinal(self.dice.between(ERAS[index].start.toordinal(), end.toordinal() - 1))

    def number(self, promulgated: date, act: bool) -> LawNumber:
        era, year = era_of(promulgated)
        highest, tries = 200 if act else 400, 0
        while True:
            num = self.dice.between(1, highest * (1 + tries // 50))
            if (era.digit, year, act, num) not in self.taken:
                self.taken.add((era.digit, year, act, num))
                return LawNumber(era, year, act, num, promulgated)
            tries += 1

    def amending_acts(self, count: int) -> list[Amendment]:
        """Acts promulgated since the Constitution, by date, each taking effect within eighteen months."""
        days = sorted(self.dice.between(CONSTITUTION.toordinal(), LAST_PROMULGATION.toordinal()) for _ in range(count))
        acts = [self.number(date.fromordinal(d), act=True) for d in days]
        return [Amendment(a, a.promulgated + timedelta(days=self.dice.between(0, 540))) for a in acts]


@dataclass
class Article:
    num: str
    caption: str  # "" when it has none (or shares the one before it)
    paragraphs: list[str]  # Paragraph elements, indented from their own start

    @property
    def deleted(self) -> bool:
        return self.paragraphs == [DELETED]

    def xml(self, pad: str) -> str:
        inner = pad + "  "
        lines = [f'{pad}<Article Num="{self.num}">']
        if self.caption:
            lines.append(f"{inner}<ArticleCaption>{self.caption}</ArticleCaption>")
        lines.append(f"{inner}<ArticleTitle>{article_title(self.num)}</ArticleTitle>")
        lines.extend(indented(p, inner) for p in self.paragraphs)
        lines.append(f"{pad}</Article>")
        return "\n".join(lines)


@dataclass
class Group:
    kind: str  # Part, Chapter, Section, Subsection or Division
    num: int
    title: str  # without its number: 総則
    children: list[Group | Article]

    @property
    def heading(self) -> str:
        return f"{numbered(str(self.num), UNITS[self.kind])}　{self.title}"


def indented(element: str, pad: str) -> str:
    return pad + element.replace("\n", "\n" + pad)


def paragraph(index: int, numbered: bool, sentence_lines: list[str], items: Sequence[str] = ()) -> str:
    """A Paragraph element, indented from its own start. Its number is left out (an empty ParagraphNum) when it is
    an article's first, or alone."""
    number = f"<ParagraphNum>{full_width(index)}</ParagraphNum>" if numbered else "<ParagraphNum/>"
    lines = [f'<Paragraph Num="{index}">', f"  {number}", "  <ParagraphSentence>", *sentence_lines]
    return "\n".join([*lines, "  </ParagraphSentence>", *items, "</Paragraph>"])


def sentences(pad: str, main: str, second: str = "", proviso: bool = False) -> list[str]:
    """Sentence elements: a second one is the ただし書 (Function="proviso") or the 後段."""
    if not second:
        return [f'{pad}<Sentence Num="1" {WRITING}>{main}</Sentence>']
    first_function, second_function = (' Function="main"', ' Function="proviso"') if proviso else ("", "")
    return [
        f'{pad}<Sentence{first_function} Num="1" {WRITING}>{main}</Sentence>',
        f'{pad}<Sentence{second_function} Num="2" {WRITING}>{second}</Sentence>',
    ]


# A deleted article keeps its place and number, its one sentence 削除 (e-Gov has no Delete="true" on articles).
DELETED = paragraph(1, False, sentences("    ", "削除"))


class Drafter:
    """The sentences of one law, with its own words, defined terms and authorities."""

    def __init__(self, prose: Prose, act: bool, articles: int, laws: Sequence[tuple[str, str]]) -> None:
        self.prose, self.dice, self.act = prose, prose.dice, act
        self.articles = max(articles, 1)
        self.words = [self.dice.pick(prose.nouns) for _ in range(4)]
        self.terms = [w + self.dice.pick(TERM_SUFFIXES) for w in self.words]
        self.authorities = [self.dice.pick(AUTHORITIES), self.dice.pick(AUTHORITIES), self.terms[0]]
        # Other laws, as (title, number): the acts drafted before this law, or made-up names for the first laws.
        self.laws = list(laws) or [(w + "法", "昭和二十二年法律第百号") for w in self.words[:2]]
        self.delegated = "政令" if act else self.dice.pick(("主務省令", "内閣府令", "総務省令", "国土交通省令"))
        self.slots: dict[str, Callable[[], str]] = {
            "a": lambda: self.dice.pick(self.authorities), "b": lambda: self.dice.pick(AUTHORITIES),
            "t": lambda: self.dice.pick(self.terms), "w": lambda: self.dice.pick(self.words),
            "p": self.short, "q": lambda: self.prose.run(20, 56), "c": self.citation,
            "k": lambda: "この法律" if act else "この政令", "o": lambda: self.delegated,
            "l": self.other_law, "n": lambda: kanji(self.dice.between(2, 6)),
            "y": lambda: self.dice.pick(("六月", "一年", "二年", "三年", "五年")),
            "m": lambda: self.dice.pick(("三十万円", "五十万円", "百万円", "三百万円", "一億円")),
            "j": lambda: self.dice.pick(("懲役", "拘禁刑")),
        }  # fmt: skip

    def sentence(self, template: str) -> str:
        return _SLOT.sub(lambda slot: self.slots[slot[1]](), template)

    def other_law(self) -> str:
        title, number = self.dice.pick(self.laws)
        return f"{title}（{number}）" if self.dice.chance(0.3) else title

    def short(self) -> str:
        """A short run of prose; rarely with a word in ruby or a power, as e-Gov marks them up."""
        text = self.prose.run(6, 20)
        if self.dice.chance(0.002):
            base, reading, rest = self.dice.pick(RUBIES)
            text += f"の<Ruby>{base}<Rt>{reading}</Rt></Ruby>{rest}"
        elif self.dice.chance(0.001):
            text += f"の一〇<Sup>{self.dice.pick(POWERS)}</Sup>"
        return text

    def citation(self) -> str:
        """An article of this law as statutes cite it: 前条, 第十二条, 第二十一条第一項第二号 …"""
        style = self.dice.random()
        if style < 0.2:
            return self.dice.pick(("前条", "前項", "同条", "次条", "前条第一項", "同項"))
        article = f"第{kanji(self.dice.between(1, self.articles))}条" + ("の二" if self.dice.chance(0.08) else "")
        if style < 0.5:
            return article
        article += f"第{kanji(self.dice.between(1, 4))}項"
        return article + (f"第{kanji(self.dice.between(1, 6))}号" if style > 0.8 else "")

    def title(self) -> tuple[str, str]:
        """A title and its reading."""
        if not self.act and self.dice.chance(0.4):
            title = self.dice.pick(self.laws)[0] + "施行令"
        else:
            template = self.dice.pick(ACT_TITLES if self.act else ORDER_TITLES)
            title = template.format(w=self.dice.pick(self.words), x=self.dice.pick(TITLE_AIMS))
        return title, self.prose.reading(int(len(title) * 1.8))

    def caption(self, role: str) -> str:
        if role == "purpose":
            return "（目的）" if self.act else "（趣旨）"
        if role == "definition":
            return "（定義）"
        if self.dice.chance(0.25 if role == "penalty" else 0.85):
            name = self.dice.pick((*self.words, *self.terms))
            return f"（{name}の{self.dice.pick(CAPTIONS)}）" if self.dice.chance(0.6) else f"（{name}）"
        return ""

    def article(self, num: str, role: str) -> Article:
        """The article numbered num; article 1 states the purpose, article 2 often defines terms."""
        if ":" in num or (num != "1" and self.dice.chance(0.01)):
            return Article(num, "", [DELETED])
        if num in ("1", "2") and role == "general":
            role = "purpose" if num == "1" else "definition" if self.dice.chance(0.6) else role
        count = 1 if role == "purpose" else self.paragraph_count()
        return Article(num, self.caption(role), [self.paragraph(i, i > 1, role) for i in range(1, count + 1)])

    def paragraph_count(self) -> int:
        """1 to 4 paragraphs by PARAGRAPH_COUNTS' shares, else 5 to 9."""
        draw = self.dice.random()
        count = next((i + 1 for i, share in enumerate(PARAGRAPH_COUNTS) if draw < share), 0)
        return count or self.dice.between(5, 9)

    def paragraph(self, index: int, numbered: bool, role: str) -> str:
        """A Paragraph element for an article of role: its sentences, then items when its sentence leads to them."""
        leads = ITEM_LEADS.get(role, ())
        if leads and self.dice.chance(0.5 if role == "definition" and index == 1 else 0.15):
            lead = sentences("    ", self.sentence(self.dice.pick(leads)))
            return paragraph(index, numbered, lead, self.items(role, "  "))
        templates = {"purpose": PURPOSES if self.act else ORDER_PURPOSES, "definition": DEFINITIONS}
        main = self.sentence(self.dice.pick(templates.get(role, PENALTIES if role == "penalty" else PROVISIONS)))
        return paragraph(index, numbered, self.with_second(main, "    "))

    def with_second(self, main: str, pad: str) -> list[str]:
        draw = self.dice.random()
        if draw < 0.15:
            return sentences(pad, main, self.sentence(self.dice.pick(PROVISOS)), proviso=True)
        if draw < 0.22:
            return sentences(pad, main, self.sentence(self.dice.pick(LATTER)))
        return sentences(pad, main)

    def items(self, role: str, pad: str) -> list[str]:
        """Item elements: a definition's term and meaning as two Columns; now and then a branch item or sub-items."""
        lines: list[str] = []
        count, base, num = self.dice.between(2, 8), 0, ""
        for index in range(1, count + 1):
            if base > 1 and "_" not in num and self.dice.chance(0.03):
                num = f"{base}_2"
            else:
                base += 1
                num = str(base)
            title = "の".join(kanji(int(n)) for n in num.split("_"))
            lines += [f'{pad}<Item Num="{num}">', f"{pad}  <ItemTitle>{title}</ItemTitle>", f"{pad}  <ItemSentence>"]
            lines += self.item_sentence(role, index == count, pad + "    ")
            lines.append(f"{pad}  </ItemSentence>")
            if role == "general" and self.dice.chance(0.05):
                lines += self.subitems(pad + "  ")
            lines.append(f"{pad}</Item>")
        return lines

    def item_sentence(self, role: str, last: bool, pad: str) -> list[str]:
        if role == "definition":
            term, meaning = self.dice.pick(self.terms), self.sentence("{q}をいう。")
            return [
                f'{pad}<Column Num="1">', *sentences(pad + "  ", term), f"{pad}</Column>",
                f'{pad}<Column Num="2">', *sentences(pad + "  ", meaning), f"{pad}</Column>",
            ]  # fmt: skip
        if role == "general" and last and self.dice.chance(0.3):
            return sentences(pad, self.sentence(LAST_ITEM))
        return sentences(pad, self.sentence(self.dice.pick(ITEMS[role])))

    def subitems(self, pad: str) -> list[str]:
        lines: list[str] = []
        for index in range(1, self.dice.between(2, 5) + 1):
            title = "イロハニホヘトチリヌ"[index - 1]
            lines += [f'{pad}<Subitem1 Num="{index}">', f"{pad}  <Subitem1Title>{title}</Subitem1Title>"]
            lines += [f"{pad}  <Subitem1Sentence>", *sentences(pad + "    ", self.sentence(self.dice.pick(SUBITEMS)))]
            lines += [f"{pad}  </Subitem1Sentence>", f"{pad}</Subitem1>"]
        return lines

    def group_title(self, kind: str, index: int, count: int, top: bool) -> str:
        if index == 0 and (top or self.dice.chance(0.3)):
            return "総則" if top or kind == "Chapter" else "通則"
        if top and index == count - 1 and count >= 4 and self.dice.chance(MISCELLANEOUS_SHARE):
            return "雑則"
        name = self.dice.pick((*self.words, *self.terms))
        return self.dice.pick((name, f"{name}の{self.dice.pick(CAPTIONS)}", f"{name}等"))

    def supplement(self, amendment: LawNumber | None, effective: date, articles: bool) -> str:
        """A SupplProvision element at LawBody's indentation: the law's own, or the one an amending act brought."""
        attributes = "" if amendment is None else f' AmendLawNum="{amendment.amend_text}"'
        if amendment is not None and self.dice.chance(0.7):
            attributes += ' Extract="true"'
        this = "この法律" if self.act or amendment else "この政令"
        enactment = self.dice.pick(ENACTMENTS).replace("{d}", japanese_date(effective))
        first = self.dice.between(0, len(TRANSITIONS) - 1)
        transitions = (TRANSITIONS[first:] + TRANSITIONS[:first])[: self.dice.between(0, 3)]
        provisions = [self.sentence(p.replace("{k}", this)) for p in (enactment, *transitions)]
        lines = [f"    <SupplProvision{attributes}>", "      <SupplProvisionLabel>附　則</SupplProvisionLabel>"]
        for index, text in enumerate(provisions, 1):
            if articles:
                caption = "（施行期日）" if index == 1 else f"（{self.dice.pick(SUPPL_CAPTIONS)}）"
                lines.append(Article(str(index), caption, [paragraph(1, False, sentences("    ", text))]).xml("      "))
            else:
                lines.append(indented(paragraph(index, len(provisions) > 1, sentences("    ", text)), "      "))
        lines.append("    </SupplProvision>")
        return "\n".join(lines)


def arrange(drafter: Drafter, nums: list[str], parent: str, penalty: bool) -> list[Group | Article]:
    """The articles numbered nums, grouped into the first kind under parent that they are many enough for."""
    for kind in INNER_KINDS[parent]:
        fewest, share, _, _ = SPLITS[kind]
        if len(nums) >= fewest and drafter.dice.chance(share):
            return list(groups(drafter, kind, nums, penalty, top=parent == "MainProvision"))
    return [drafter.article(num, "penalty" if penalty else "general") for num in nums]


def groups(drafter: Drafter, kind: str, nums: list[str], penalty: bool, top: bool) -> Iterator[Group]:
    """Groups of kind; at the top, first 総則 and often last 罰則, holding the penalties."""
    dice = drafter.dice
    _, _, fewest, most = SPLITS[kind]
    tail: list[str] = []
    if top and dice.chance(PENALTY_CHAPTER_SHARE):
        cut = len(nums) - min(12, max(2, len(nums) // 12))
        nums, tail = nums[:cut], nums[cut:]
    runs = dice.split(nums, max(2, round(len(nums) / dice.between(fewest, most))))
    for index, run in enumerate(runs):
        title = drafter.group_title(kind, index, len(runs), top)
        yield Group(kind, index + 1, title, arrange(drafter, run, kind, penalty))
    if tail:
        yield Group(kind, len(runs) + 1, "罰則", arrange(drafter, tail, kind, penalty=True))


def article_nums(count: int, dice: Dice) -> list[str]:
    """count article numbers as a law amended over the years has them: 1, 2, 2_2, 3, 4:6 (deleted together), 7 …"""
    nums: list[str] = []
    last = 0
    while len(nums) < count:
        if last > 2 and dice.chance(0.004):
            nums.append(f"{last + 1}:{last + 3}")
            last += 3
            continue
        last += 1
        nums.append(str(last))
        branches = 0 if not dice.chance(0.04) else 2 if dice.chance(0.3) else 1
        nums += [f"{last}_{b + 2}" for b in range(branches)]
    return nums[:count]


def placed(children: list[Group | Article]) -> Iterator[tuple[list[Group | Article], Article]]:
    """Every article with the list that holds it, in order."""
    for child in children:
        if isinstance(child, Article):
            yield children, child
        else:
            yield from placed(child.children)


def article_range(children: list[Group | Article]) -> str:
    first, last = children[0], children[-1]
    assert isinstance(first, Article) and isinstance(last, Article)
    start, end = article_title(first.num.split(":")[0]), article_title(last.num.split(":")[-1])
    return f"（{start}）" if start == end else f"（{start}―{end}）"


def toc(children: list[Group | Article], pad: str) -> Iterator[str]:
    for child in children:
        if isinstance(child, Group):
            yield f'{pad}<TOC{child.kind} Num="{child.num}">'
            yield f"{pad}  <{child.kind}Title>{child.heading}</{child.kind}Title>"
            if isinstance(child.children[0], Article):
                yield f"{pad}  <ArticleRange>{article_range(child.children)}</ArticleRange>"
            else:
                yield from toc(child.children, pad + "  ")
            yield f"{pad}</TOC{child.kind}>"


def provisions(children: list[Group | Article], pad: str) -> Iterator[str]:
    for child in children:
        if isinstance(child, Article):
            yield child.xml(pad)
        else:
            yield f'{pad}<{child.kind} Num="{child.num}">'
            yield f"{pad}  <{child.kind}Title>{child.heading}</{child.kind}Title>"
            yield from provisions(child.children, pad + "  ")
            yield f"{pad}</{child.kind}>"


@dataclass(frozen=True)
class Revision:
    name: str  # 415AC0000000057_20200612_502AC0000000044: the folder, and with .xml its one file
    effective: date
    xml: bytes
    articles: int  # Article elements in the main provision


class Law:
    """One law as drafted, then amended revision by revision."""

    def __init__(self, number: LawNumber, effective: date, drafter: Drafter, size: int) -> None:
        self.number, self.drafter, self.dice = number, drafter, drafter.dice
        self.title, self.kana = drafter.title()
        self.abbreviation = ("", "")
        if self.dice.chance(0.05):
            short = self.dice.pick(drafter.words) + "法"
            self.abbreviation = (short, drafter.prose.reading(len(short) * 2))
        self.enactment = self.enact_statement()
        self.paragraphs: list[str] = []
        self.main: list[Group | Article] = []
        if size <= PARAGRAPHS_ONLY_UP_TO and self.dice.chance(PARAGRAPHS_ONLY_SHARE):
            self.paragraphs = [drafter.paragraph(i, size > 1, "general") for i in range(1, size + 1)]
        else:
            self.main = arrange(drafter, article_nums(size, self.dice), "MainProvision", penalty=False)
        self.supplements = [drafter.supplement(None, effective, articles=size > 60)]
        self.effective, self.amended_by = effective, "0" * 15

    def enact_statement(self) -> str:
        if not self.number.act and self.dice.chance(0.7):
            title, number = self.dice.pick(self.drafter.laws)
            article = kanji(self.dice.between(1, 60))
            return f"内閣は、{title}（{number}）第{article}条の規定に基づき、この政令を制定する。"
        if self.number.act and self.dice.chance(0.03):
            return f"{self.dice.pick(self.drafter.words)}法の全部を改正する。"
        return ""

    def amend(self, amendment: Amendment, rename: bool) -> None:
        """The law as amendment leaves it: a few paragraphs rewritten, and when it has articles a branch article
        added and an article deleted; with the amending act's supplementary provision."""
        self.rewrite()
        if self.main:
            self.insert()
            self.delete()
        if rename:
            self.title, self.kana = self.drafter.title()
        self.take_effect(amendment)

    def take_effect(self, amendment: Amendment) -> None:
        """The revision amendment made: dated by it, with its supplementary provision (an amendment before the first
        revision written is already in the text as drafted)."""
        self.supplements.append(self.drafter.supplement(amendment.number, amendment.effective, self.dice.chance(0.2)))
        self.effective, self.amended_by = amendment.effective, amendment.number.law_id

    def rewrite(self) -> None:
        if not self.main:
            index = self.dice.between(1, len(self.paragraphs))
            self.paragraphs[index - 1] = self.drafter.paragraph(index, len(self.paragraphs) > 1, "general")
            return
        live = [a for _, a in placed(self.main) if not a.deleted]
        for _ in range(max(1, len(live) // 30)):
            article = self.dice.pick(live)
            index = self.dice.between(1, len(article.paragraphs) + 1)
            article.paragraphs[index - 1 : index] = [self.drafter.paragraph(index, index > 1, "general")]

    def insert(self) -> None:
        """A branch article after the last of its base's branches: after 12 and 12_2 comes 12_3."""
        here = {a.num: (siblings, a) for siblings, a in placed(self.main)}
        bases = [a.num.split("_")[0] for _, a in here.values() if ":" not in a.num and not a.deleted]
        base = self.dice.pick(bases)
        branch = 2
        while f"{base}_{branch}" in here:
            branch += 1
        siblings, after = here[base if branch == 2 else f"{base}_{branch - 1}"]
        siblings.insert(siblings.index(after) + 1, self.drafter.article(f"{base}_{branch}", "general"))

    def delete(self) -> None:
        """An article deleted as e-Gov shows it: kept in place, its sentence 削除 (article 1 and short laws kept)."""
        live = [a for _, a in placed(self.main) if not a.deleted and a.num != "1"]
        if len(live) > 2:
            article = self.dice.pick(live)
            article.caption, article.paragraphs = "", [DELETED]

    def revision(self) -> Revision:
        name = f"{self.number.law_id}_{self.effective:%Y%m%d}_{self.amended_by}"
        articles = sum(1 for _ in placed(self.main))
        return Revision(name, self.effective, self.xml().encode(), articles)

    def xml(self) -> str:
        number = self.number
        law_type = "Act" if number.act else "CabinetOrder"
        abbreviation, abbreviation_kana = self.abbreviation
        lines = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            f'<Law Era="{number.era.name}" Year="{number.year}" Num="{number.num}" PromulgateMonth='
            f'"{number.promulgated.month}" PromulgateDay="{number.promulgated.day}" LawType="{law_type}" Lang="ja">',
            f"  <LawNum>{number.text}</LawNum>",
            "  <LawBody>",
            f'    <LawTitle Kana="{self.kana}" Abbrev="{abbreviation}" AbbrevKana="{abbreviation_kana}">'
            f"{self.title}</LawTitle>",
        ]
        if self.enactment:
            lines.append(f"    <EnactStatement>{self.enactment}</EnactStatement>")
        if self.main and isinstance(self.main[0], Group):
            lines += ["    <TOC>", "      <TOCLabel>目次</TOCLabel>", *toc(self.main, "      ")]
            lines += ["      <TOCSupplProvision>", "        <SupplProvisionLabel>附則</SupplProvisionLabel>"]
            lines += ["      </TOCSupplProvision>", "    </TOC>"]
        lines += ["    <MainProvision>", *provisions(self.main, "      ")]
        lines += [indented(p, "      ") for p in self.paragraphs]
        lines += ["    </MainProvision>", *self.supplements, "  </LawBody>", "</Law>", ""]
        return "\n".join(lines)


def law_sizes(rng: np.random.Generator, count: int) -> list[int]:
    """Articles per law: log-normal, with a log-uniform tail of codes."""
    sizes = np.clip(rng.lognormal(np.log(MEDIAN_ARTICLES), SIGMA, count), 1, MAX_ARTICLES)
    tail = rng.random(count) < TAIL_SHARE
    sizes[tail] = np.exp(rng.uniform(np.log(TAIL_FROM), np.log(MAX_ARTICLES), int(tail.sum())))
    return [int(s) for s in np.rint(sizes)]


class Statutes:
    """The laws one after another, each as the revisions of it e-Gov would publish."""

    def __init__(self, laws: int, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.dice = Dice(self.rng)
        self.prose = Prose(self.rng, self.dice)
        self.registry = Registry(self.dice)
        self.amending_acts = self.registry.amending_acts(max(50, laws // 3))
        self.promulgations = [a.number.promulgated for a in self.amending_acts]
        self.sizes = law_sizes(self.rng, laws)
        self.acts: deque[tuple[str, str]] = deque(maxlen=200)  # recent acts (title, number), for later laws to cite

    def __iter__(self) -> Iterator[Revision]:
        for size in self.sizes:
            yield from self.law(size)

    def law(self, size: int) -> Iterator[Revision]:
        promulgated = self.registry.promulgation()
        act = promulgated < CONSTITUTION or self.dice.chance(ACT_SHARE)
        number = self.registry.number(promulgated, act)
        effective = number.promulgated + timedelta(days=self.dice.between(0, 365))
        amendments = self.amendments(effective, size)
        versions = 1
        if amendments and self.dice.chance(VERSIONED_SHARE):
            versions = 3 if len(amendments) > 1 and self.dice.chance(THREE_VERSIONS_SHARE) else 2
        law = Law(number, effective, Drafter(self.prose, act, size, self.acts), size)
        if act:
            self.acts.append((law.title, number.text))
        first = len(amendments) - versions + 1
        for amendment in amendments[:first]:
            law.take_effect(amendment)
        yield law.revision()
        renamed = versions > 1 and self.dice.chance(RENAMED_SHARE)
        for later, amendment in enumerate(amendments[first:]):
            law.amend(amendment, rename=renamed and later == 0)
            yield law.revision()

    def amendments(self, effective: date, size: int) -> list[Amendment]:
        """The acts that amended the law since it took effect, by the day each took effect: more for older and
        longer laws."""
        start = bisect.bisect_right(self.promulgations, effective)
        years = max(0, (LAST_PROMULGATION - effective).days) / 365
        expected = years / YEARS_PER_AMENDMENT * (0.5 + np.log10(size + 1) / 2)
        count = min(int(self.rng.poisson(expected)), len(self.amending_acts) - start)
        chosen = self.rng.choice(len(self.amending_acts) - start, count, replace=False) + start
        return sorted((self.amending_acts[int(i)] for i in chosen), key=lambda a: (a.effective, a.number.law_id))


@dataclass(frozen=True)
class Summary:
    laws: int
    versions: int  # revisions written: folders, each with one file
    articles: int  # Article elements in the main provisions, over every revision
    bytes: int  # of XML (before compression, for the zip)
    stored_bytes: int  # on disk: the files, or the zip


class Tally:
    def __init__(self) -> None:
        self.laws = self.versions = self.articles = self.bytes = 0
        self.last_law = ""

    def add(self, revision: Revision) -> None:
        law_id = revision.name[:15]
        self.laws += law_id != self.last_law
        self.last_law = law_id
        self.versions += 1
        self.articles += revision.articles
        self.bytes += len(revision.xml)

    def summary(self, stored_bytes: int) -> Summary:
        return Summary(self.laws, self.versions, self.articles, self.bytes, stored_bytes)


def write_folder(path: Path, laws: int, seed: int = SEED) -> Summary:
    """The corpus as e-Gov's bulk download unpacked: a folder of revision folders (written in a .partial folder,
    then renamed into place). path must not exist."""
    if path.exists():
        raise FileExistsError(f"{path} exists: remove it to write the corpus again")
    partial = path.with_name(path.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    tally = Tally()
    for revision in Statutes(laws, seed):
        folder = partial / revision.name
        folder.mkdir()
        (folder / f"{revision.name}.xml").write_bytes(revision.xml)
        tally.add(revision)
    partial.rename(path)
    return tally.summary(tally.bytes)


def write_zip(path: Path, laws: int, seed: int = SEED) -> Summary:
    """The same folders in a zip, entry by entry (deflated, each dated by its revision's effective date, so that a
    seed gives the same bytes); written whole, then renamed into place."""
    partial = path.with_name(path.name + ".partial")
    path.parent.mkdir(parents=True, exist_ok=True)
    tally = Tally()
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as archive:
        for revision in Statutes(laws, seed):
            day = max(revision.effective, date(1980, 1, 1))
            entry = zipfile.ZipInfo(f"{revision.name}/{revision.name}.xml", (day.year, day.month, day.day, 0, 0, 0))
            entry.compress_type, entry.external_attr = zipfile.ZIP_DEFLATED, 0o644 << 16
            archive.writestr(entry, revision.xml)
            tally.add(revision)
    partial.replace(path)
    return tally.summary(path.stat().st_size)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("target", type=Path, help="a folder to create, or a file ending in .zip")
    parser.add_argument("--laws", type=int, default=9_000)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    started = time.perf_counter()
    write = write_zip if args.target.suffix == ".zip" else write_folder
    summary = write(args.target, args.laws, args.seed)
    print(
        f"{summary.laws:,} laws, {summary.versions:,} revisions, {summary.articles:,} articles, "
        f"{summary.bytes / 1e6:,.0f} MB of XML, {summary.stored_bytes / 1e6:,.0f} MB stored"
    )
    print(f"wrote {args.target} in {time.perf_counter() - started:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
