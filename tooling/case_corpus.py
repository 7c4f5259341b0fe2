"""A synthetic case-law corpus as varied as real Japanese text, for the case-law benchmark.

    .venv/bin/python -m tooling.case_corpus build/bench/cases.db --decisions 100000

The templated corpus it replaces repeated eight sentences over thirty topics: 1.17 GB of it prepared into 0.21 GB,
and every decision held nearly every character pair, which flatters a bigram index and a compressor alike. Here:

- prose is drawn word by word from wordfreq's Japanese list (214,936 words with their frequencies in Wikipedia,
  news, subtitles and web text), so characters and character pairs follow the real long tail;
- each decision has its own parties, places and things (rarer words, repeated through it as names are), three
  legal topics, and legal sentences citing articles, exhibits, amounts and dates in the spellings decisions use;
- lengths are log-normal (median 10,000 characters, a long tail to 300,000), courts and case symbols weighted
  roughly as they are published (district courts most).

Deterministic for a given seed and size; the SQLite file has the existing system's columns.
"""

from __future__ import annotations

import argparse
import re
import sqlite3
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import wordfreq

SEED = 20261122
MEDIAN_CHARS, SIGMA, MIN_CHARS, MAX_CHARS = 10_000, 0.9, 1_500, 300_000
# Words that are one Japanese script run (kanji with 々, hiragana, katakana with ー): wordfreq also lists Latin,
# Hangul and symbols, which decisions hardly hold.
_JAPANESE_WORD = re.compile(r"[\u3041-\u309f\u30a0-\u30ff\u4e00-\u9fff々〆ー]+")
# Case words (names, places, things) come from the rarer part of the list: ranks beyond the common vocabulary.
_CASE_WORD_RANKS = (20_000, 200_000)

COURTS = (  # (court as written, weight)
    ("東京地方裁判所", 14), ("東京地裁", 4), ("大阪地方裁判所", 8), ("名古屋地方裁判所", 4), ("福岡地方裁判所", 4),
    ("札幌地方裁判所", 3), ("仙台地方裁判所", 2), ("広島地方裁判所", 2), ("横浜地方裁判所", 4),
    ("横浜地方裁判所川崎支部", 1), ("さいたま地方裁判所", 3), ("千葉地方裁判所", 3), ("京都地方裁判所", 2),
    ("神戸地方裁判所", 2), ("大阪地方裁判所堺支部", 1), ("東京高等裁判所", 8), ("東京高裁", 2),
    ("大阪高等裁判所", 5), ("大阪高裁", 1), ("名古屋高等裁判所", 2), ("福岡高等裁判所", 2),
    ("知的財産高等裁判所", 4), ("知財高裁", 2), ("最高裁判所第一小法廷", 2), ("最高裁判所第二小法廷", 2),
    ("最高裁判所第三小法廷", 2), ("最高裁判所大法廷", 0.2), ("東京家庭裁判所", 2), ("札幌家裁", 0.5),
    ("東京簡易裁判所", 1), ("京都簡裁", 0.3),
)  # fmt: skip
SYMBOLS = ("ワ", "ワ", "ワ", "ネ", "ネ", "受", "オ", "行ウ", "行コ", "行ケ", "わ", "う", "あ", "ヨ", "家", "ラ")
TOPICS = (
    "損害賠償", "不法行為", "過失", "債務不履行", "売買契約", "賃貸借契約", "発信者情報", "開示", "名誉毀損",
    "特許権", "侵害", "差止", "著作権", "商標権", "労働契約", "解雇", "残業代", "相続", "遺産分割", "離婚",
    "親権", "交通事故", "後遺障害", "慰謝料", "過払金", "不当利得", "保証債務", "抵当権", "行政処分", "取消",
    "国家賠償", "詐欺", "窃盗", "業務上過失致死傷", "建物明渡", "請負代金", "株主代表訴訟", "使用者責任",
    "安全配慮義務", "情報公開", "生活保護", "入管", "税務", "独占禁止法", "消費者契約", "医療過誤",
)  # fmt: skip
LAWS = ("民法", "民法", "民法", "刑法", "会社法", "民事訴訟法", "特許法", "著作権法", "労働契約法", "行政事件訴訟法",
        "国家賠償法", "刑事訴訟法", "借地借家法", "消費者契約法", "商標法", "憲法")  # fmt: skip
ARTICLES = (709, 715, 415, 90, 1, 3, 5, 20, 96, 103, 423, 541, 570, 703, 704, 719, 722, 770, 819, 896, 907, 100, 21)
PARTIES = (
    ("原告", "被告"), ("控訴人", "被控訴人"), ("上告人", "被上告人"), ("申立人", "相手方"), ("請求人", "被請求人"),
)  # fmt: skip
HEADINGS = ("第1　請求", "第2　事案の概要", "1　前提事実", "2　争点", "第3　当裁判所の判断", "第4　結論")
LEGAL_SENTENCES = (
    "{p}は、{t}に基づき、{q}に対し、金{a}円及びこれに対する{d}から支払済みまで年{r}分の割合による金員の支払を求める。",
    "証拠（甲第{n}号証、乙第{m}号証）及び弁論の全趣旨によれば、{w}が{t}に当たる事実が認められる。",
    "{law}{art}の{t}の要件について検討する。",
    "{q}は、{w}の点について争い、{p}の請求は理由がないと主張する。",
    "当裁判所は、{t}に関する{p}の主張は採用することができないと判断する。",
    "以上によれば、{p}の請求は、金{a}円及びこれに対する遅延損害金の支払を求める限度で理由がある。",
    "本件における{t}の成否は、{w}及び{v}の評価にかかっている。",
    "{d}、{w}は{v}との間で{t}に関する合意をした（甲{n}）。",
    "{law}{art}によれば、{w}の{t}は認められない。",
    "{p}は、{d}、{q}に対し、{w}について{t}を理由とする通知をし、同通知はその頃{q}に到達した。",
)
MAIN_TEXTS = (
    "1　{q}は、{p}に対し、金{a}円を支払え。\n2　訴訟費用は{q}の負担とする。",
    "1　本件控訴を棄却する。\n2　控訴費用は控訴人の負担とする。",
    "本件上告を棄却する。上告費用は上告人の負担とする。",
    "1　原判決を取り消す。\n2　{p}の請求を棄却する。",
    "{p}の請求をいずれも棄却する。",
    "被告人を懲役{n}年に処する。この裁判確定の日から{m}年間その刑の執行を猶予する。",
)


@dataclass(frozen=True)
class Vocabulary:
    words: list[str]
    cumulative: np.ndarray  # word i is drawn when a uniform draw falls below cumulative[i] (and above i-1)

    @classmethod
    def japanese(cls) -> Vocabulary:
        frequencies = wordfreq.get_frequency_dict("ja", wordlist="large")
        words = [w for w in frequencies if _JAPANESE_WORD.fullmatch(w)]
        weights = np.array([frequencies[w] for w in words])
        return cls(words, np.cumsum(weights) / weights.sum())

    def draw(self, rng: np.random.Generator, count: int) -> list[str]:
        indices = np.searchsorted(self.cumulative, rng.random(count))
        return [self.words[i] for i in np.minimum(indices, len(self.words) - 1)]


class Writer:
    """The text of one decision, sentence by sentence, with its own cast of words."""

    def __init__(self, rng: np.random.Generator, vocabulary: Vocabulary) -> None:
        self.rng, self.vocabulary = rng, vocabulary
        low, high = _CASE_WORD_RANKS
        self.case_words = [vocabulary.words[i] for i in rng.integers(low, min(high, len(vocabulary.words)), 6)]
        self.topics = [str(t) for t in rng.choice(TOPICS, 3, replace=False)]
        self.party, self.opponent = PARTIES[int(rng.integers(len(PARTIES)))]

    def pick(self, options: Sequence[str]) -> str:
        return options[int(self.rng.integers(len(options)))]

    def slots(self) -> dict[str, str]:
        rng = self.rng
        return {
            "p": self.party, "q": self.opponent, "t": self.pick(self.topics), "w": self.pick(self.case_words),
            "v": self.pick(self.case_words), "a": f"{int(rng.integers(1, 99_999)) * 1000:,}",
            "n": str(rng.integers(1, 80)), "m": str(rng.integers(1, 40)),
            "r": self.pick(("3", "5", "6")), "d": era_date(rng), "law": self.pick(LAWS), "art": citation(rng),
        }  # fmt: skip

    def prose(self) -> str:
        """8 to 40 words from the whole vocabulary, some of them this decision's own, with commas."""
        words = self.vocabulary.draw(self.rng, int(self.rng.integers(8, 40)))
        for place in np.flatnonzero(self.rng.random(len(words)) < 0.08):
            words[place] = self.pick(self.case_words + self.topics)
        for place in np.flatnonzero(self.rng.random(len(words)) < 0.07):
            words[place] += "、"
        return "".join(words) + "。"

    def sentence(self) -> str:
        if self.rng.random() < 0.25:
            return self.pick(LEGAL_SENTENCES).format(**self.slots())
        return self.prose()

    def body(self, chars: int) -> str:
        parts: list[str] = []
        length = heading = 0
        while length < chars:
            if heading < len(HEADINGS) and length >= chars * heading / len(HEADINGS):
                parts.append("\n" + HEADINGS[heading] + "\n")
                heading += 1
            parts.append(self.sentence())
            length += len(parts[-1])
        return "".join(parts)


def citation(rng: np.random.Generator) -> str:
    """An article as decisions write it: 第709条, 709条1項, 第七百九条, 第20条の2第1項 …"""
    number = int(ARTICLES[int(rng.integers(len(ARTICLES)))])
    style = rng.random()
    article = f"第{kanji_number(number)}条" if style < 0.25 else ("第" if style < 0.7 else "") + f"{number}条"
    if rng.random() < 0.15:
        article += f"の{rng.integers(2, 4)}"
    if rng.random() < 0.4:
        article += f"{'第' if rng.random() < 0.5 else ''}{rng.integers(1, 4)}項"
    return article


def kanji_number(number: int) -> str:
    """>>> kanji_number(709), kanji_number(20), kanji_number(1)
    ('七百九', '二十', '一')"""
    digits = "〇一二三四五六七八九"
    text = ""
    for unit, name in ((100, "百"), (10, "十")):
        count, number = divmod(number, unit)
        text += (digits[count] if count > 1 else "") + name if count else ""
    return text + (digits[number] if number else "")


def era_date(rng: np.random.Generator) -> str:
    year, month, day = int(rng.integers(1995, 2026)), int(rng.integers(1, 13)), int(rng.integers(1, 29))
    style = rng.random()
    if style < 0.3:
        return f"{year}-{month:02d}-{day:02d}"
    era, base = ("令和", 2018) if year >= 2019 else ("平成", 1988)
    era_year = "元" if year - base == 1 else str(year - base)
    text = f"{era}{era_year}年{month}月{day}日"
    return text.translate(str.maketrans("0123456789", "０１２３４５６７８９")) if style > 0.8 else text


def decisions(count: int, seed: int = SEED) -> Iterator[tuple[str, ...]]:
    """Rows of (doc_id, court, date, case_number, case_name, main_text, facts_and_reasons, source_url)."""
    rng = np.random.default_rng(seed)
    vocabulary = Vocabulary.japanese()
    courts = [c for c, _ in COURTS]
    weights = np.array([w for _, w in COURTS]) / sum(w for _, w in COURTS)
    lengths = np.clip(rng.lognormal(np.log(MEDIAN_CHARS), SIGMA, count), MIN_CHARS, MAX_CHARS).astype(int)
    for i, chars in enumerate(lengths):
        writer = Writer(rng, vocabulary)
        slots = writer.slots()
        era = writer.pick(("平成", "令和"))
        yield (
            f"D{i:06d}",
            courts[int(rng.choice(len(courts), p=weights))],
            era_date(rng),
            f"{era}{rng.integers(1, 31)}年({writer.pick(SYMBOLS)})第{rng.integers(1, 30000)}号",
            f"{writer.topics[0]}{writer.pick(('請求事件', '請求控訴事件', '被告事件', '等請求事件', '取消請求事件'))}",
            writer.pick(MAIN_TEXTS).format(**slots),
            writer.body(int(chars)),
            f"https://example.jp/hanrei/{i}",
        )


def write(path: Path, count: int) -> None:
    """The corpus as a SQLite file shaped like the existing system's (written whole, then renamed into place)."""
    partial = path.with_suffix(".partial")
    partial.unlink(missing_ok=True)
    con = sqlite3.connect(partial)
    con.execute(
        "CREATE TABLE cases (doc_id TEXT PRIMARY KEY, court TEXT, date TEXT, case_number TEXT, case_name TEXT,"
        " main_text TEXT, facts_and_reasons TEXT, source_url TEXT)"
    )
    con.executemany("INSERT INTO cases VALUES (?, ?, ?, ?, ?, ?, ?, ?)", decisions(count))
    con.commit()
    con.close()
    partial.rename(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("target", type=Path)
    parser.add_argument("--decisions", type=int, default=100_000)
    args = parser.parse_args()
    started = time.perf_counter()
    write(args.target, args.decisions)
    print(f"wrote {args.decisions:,} decisions in {time.perf_counter() - started:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
