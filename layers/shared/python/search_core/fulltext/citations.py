"""Article citations matched as a lawyer reads them, over the normalised text as it is.

Decisions cite 「第七百九条」, 「709条1項」, 「民法709条の2第1項」, 「民法（平成29年法律第44号による改正前のも
の）415条」; keywords are written 「第709条」, 「七百九条」, 「709条」. One reading says where a text cites a unit, a
number with 条, 項 or 号, perhaps with its 「の2」 (the old 「ノ2」 is normalised to it), and where what is written
before it may end. It is written once, as a pattern (_unit_pattern, _NOTE): the index's keys read a text by it
(cited_units), and a keyword is a pattern made of it (Citation.spans, whence holds, relevance, findInCase's places
and snippets), so no path finds a citation another misses. A unit's numbers are whole (398条の2 is not 398条の22),
without an 「の2」 of its own it is not followed by one, it never begins a word (3条件, 甲第3号証) and never numbers
a case (号 right after a case's bracket: (ワ)第1号). What is written before a unit ends at its number, at its 第,
or before a note in brackets on its law: 民法(明治29年法律第89号)第709条 is 民法's 709条. A keyword is read the same
way (its 「第」 optional); the text is not otherwise rewritten, so every other keyword (「条の」, 「第709」,
「(ワ)第345」) is still a plain substring.

The index holds keys for the citations of each decision (citation_keys), named so that a decision holding a keyword
holds every key the keyword asks for (Citation.keys): its units cited (709条, 709条の2), each unit right after
another one (709条 then 1項, with or without 第), each unit after the two characters written before it (民法 then
709条, or 第709条), and a unit right after another after those two (民法 then 709条 then 1項). A keyword's
candidates are the decisions holding all its keys: digits everywhere no longer make every decision one.

>>> [Citation.read("709条").holds(t) for t in ("第709条1項", "1709条", "709条の2", "民法709条")]
[True, False, False, True]
>>> [Citation.read(k).holds(t) for k, t in (("3条", "3条件"), ("第3号", "甲第3号証"), ("第1号", "(ワ)第1号"))]
[False, False, False]
>>> [Citation.read("民法415条").holds(t) for t in ("民法(平成29年法律第44号)415条", "民法(x)(y)415条")]
[True, False]
>>> Citation.read("民法709条1項").keys  # doctest: +NORMALIZE_WHITESPACE
('cite:709条', 'cite-after:民法|709条', 'cite:1項', 'cite-pair:709条|1項',
 'cite-after-pair:民法|709条|1項')
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from pyroaring import BitMap

from search_core.fulltext.terms import DecisionIndex, PatternTerm

# What after a unit makes it the start of a word (3条件 is three conditions, 3項目 three items, 甲第3号証 an
# exhibit, 2号機 a machine).
_WORD_AFTER = {"条": "件", "項": "目", "号": "証機"}
# A case's bracket, its kind of record of one to three kana or kanji ((ワ), (受), (行ヒ), (あ)): 号 right after one,
# perhaps after 第, numbers a case. Looked behind the number, one width at a time.
_KIND = "[\u3041-\u30ff\u4e00-\u9fff]"
_NOT_A_CASE = "".join(f"(?<!\\({_KIND}{{{width}}}\\){dai})" for width in (1, 2, 3) for dai in ("", "第"))
# A note in brackets between a law and its unit (民法(平成29年法律第44号による改正前のもの)415条): on one line,
# holding at most three brackets of its own, none holding another; read in one pass (possessive), so a text's
# brackets are each read once.
_NOTE = r"\([^()\n\r]*+(?:\([^()\n\r]*+\)[^()\n\r]*+){0,3}+\)"
_NOTE_BEFORE_UNIT = re.compile(f"(?=({_NOTE})第?\\d)")
# Where a unit's number may begin: digits not inside a longer number, right before a unit (the pattern decides).
_NUMBER = re.compile(r"(?<!\d)\d++[条項号]")
# The kinds of key: a unit cited, a unit right after another, a unit after the two characters written before it (its
# window), a unit right after another that follows its window.
CITED, CITED_PAIR, CITED_AFTER, CITED_AFTER_PAIR = "cite:", "cite-pair:", "cite-after:", "cite-after-pair:"
# How many characters written before a unit a key names: enough for a law (民法, 社法 of 会社法), few keys a unit.
_BEFORE = 2
# 同法 cites the law named last before it: a keyword naming a law (民法709条) also finds 同法709条 where the last
# unit cited after a law's name, before it, is cited after that law's name (民法415条…同法709条; not 商法…同法709条).
SAME_LAW = "同法"
# A law's name before its unit: a run of kanji and katakana (and the Latin of PL法) ending in 法 or 法律, read back
# from the unit at most this far.
_NAME_CHARS = re.compile("[\u4e00-\u9fff\u30a0-\u30ffー々a-z]")
_LAW_NAME = re.compile("[\u4e00-\u9fff\u30a0-\u30ffー々a-z]*法律?")
_MAX_NAME_CHARS = 60
# Names that stand for no one law by themselves: they are not a law a decision cites.
_NOT_A_LAW = ("法", "法律", "本法", "旧法", "新法", "改正法", "前記法", "上記法", "同法律")


def _unit_pattern(cited: str | None = None) -> str:
    """The pattern of a unit from its number: `cited` as a keyword cites it (709条, 398条の2), or any. Its rules are
    here alone: the number not inside a longer one, not a case's number, not the start of a word, and its branch
    number whole.

    >>> [bool(re.match(_unit_pattern(), t)) for t in ("709条", "3条件", "1号機", "709条の2")]
    [True, False, False, True]
    """
    if cited is None:
        written, branch, ahead = r"\d+[条項号]", r"(?:の\d+)?", ""
    else:
        article, _, sub = cited.partition("の")
        written, branch = re.escape(article), (f"の{sub}(?!\\d)" if sub else r"(?!の\d)")
        ahead = f"(?={written})"  # looked for first: the scan runs at the speed of finding the number
    words = "|".join(f"{unit}(?![{after}])" for unit, after in _WORD_AFTER.items())
    rules = rf"(?<!\d)(?:(?=\d+号){_NOT_A_CASE}|(?!\d+号))(?=\d+(?:{words}))"
    return f"{ahead}{rules}({written}{branch})"


_UNIT = re.compile(_unit_pattern())


class Cited(NamedTuple):
    """A unit a text cites: written from `start` (its 第, else its number) to `end`, citing `cited` (709条,
    709条の2, 1項); `after` is where what is written before it may end: at its number, at its 第, and before a note
    in brackets right before it (民法(明治29年法律第89号)第709条 cites 709条 after 民法)."""

    start: int
    end: int
    cited: str
    after: tuple[int, ...]


def cited_units(text: str) -> Iterator[Cited]:
    """Every unit a normalised text cites, in order of their numbers (709条の2項 cites 709条の2 and 2項).

    >>> [unit.cited for unit in cited_units("民法(平成29年法律第44号)415条、令和3年(ワ)第1号、709条の2項")]
    ['44号', '415条', '709条の2', '2項']
    >>> list(cited_units("民法(明治29年法律第89号)第709条"))[1]
    Cited(start=15, end=20, cited='709条', after=(16, 15, 2))
    """
    notes = {note.end(1): note.start() for note in _NOTE_BEFORE_UNIT.finditer(text)}  # by where each ends
    for number in _NUMBER.finditer(text):
        at = number.start()
        if (unit := _UNIT.match(text, at)) is None:
            continue
        start = at - 1 if at and text[at - 1] == "第" else at
        after = (at,) if start == at else (at, start)
        opening = notes.get(start)
        yield Cited(start, unit.end(), unit[1], after if opening is None else (*after, opening))


@dataclass(frozen=True)
class Citation(PatternTerm):
    """A keyword holding a citation: `text` as written (normalised), `units` each unit it cites with what it writes
    before it, `trailing` what it writes after the last, the index's `keys` for it, and `regex`, what it matches.

    >>> cited = Citation.read("709条")
    >>> list(cited.spans("第709条と1709条と709条")), cited.count_in("709条の2、709条"), cited.exact_by_index
    ([(0, 5), (12, 16)], 1, True)
    >>> [Citation.read(k).exact_by_index for k in ("709条1項", "1項第2号", "709条1項1号", "民法709条")]
    [True, True, False, False]
    """

    text: str
    units: tuple[tuple[str, str], ...]  # (("民法", "709条"), ("", "1項")) for 民法第709条1項
    trailing: str
    keys: tuple[str, ...]
    regex: re.Pattern[str]
    # Whether its keys say all the keyword writes: one unit or two in a row, perhaps after two characters (709条,
    # 民法第709条の2, 民法709条1項). Then a decision holds it exactly when it holds its keys; not so with three units
    # (two pairs need not be in one place) or more words (社法 before 423条 is not 会社法).
    keyed_whole: bool = False
    # For a keyword naming a law before its first unit (民法709条): the same keyword after 同法, and that law's name.
    same_law: Citation | None = None
    law: str = ""

    @classmethod
    def read(cls, written: str) -> Citation | None:
        """The keyword as a citation, or None if it cites nothing (already normalised: Arabic numerals). It is read
        as a text is: a keyword writing a case's number ((受)第210号) cites nothing, and is found as written."""
        read: list[Cited] = []
        for unit in cited_units(written):
            if not read or unit.start >= read[-1].end:  # 709条の2項 is 709条の2, then 項
                read.append(unit)
        if not read:
            return None
        units, keys, parts, position, previous, window = [], [], [], 0, "", ""
        for unit in read:
            before = written[position : unit.start]
            units.append((before, unit.cited))
            # Before a unit, what the keyword writes, then perhaps a note and a 第; a first unit written alone is
            # found from its number (and shown from its 第: spans)
            parts.append(f"{re.escape(before)}(?:{_NOTE})?第?" if before or previous else "")
            parts.append(_unit_pattern(unit.cited))
            keys.append(CITED + unit.cited)
            if previous and not before:
                keys.append(f"{CITED_PAIR}{previous}|{unit.cited}")
                if window:
                    keys.append(f"{CITED_AFTER_PAIR}{window}|{previous}|{unit.cited}")
            window = written[unit.start - _BEFORE : unit.start] if before and unit.start >= _BEFORE else ""
            if window:
                keys.append(f"{CITED_AFTER}{window}|{unit.cited}")
            position, previous = unit.end, unit.cited
        trailing, befores = written[position:], [before for before, _ in units]
        whole = not trailing and len(units) <= 2 and befores[1:] in ([], [""]) and len(befores[0]) in (0, _BEFORE)
        regex = re.compile("".join(parts) + re.escape(trailing))
        law = befores[0]
        if _LAW_NAME.fullmatch(law) and not law.endswith(SAME_LAW):
            same_law = cls.read(SAME_LAW + written[len(law) :])
            return cls(written, tuple(units), trailing, tuple(keys), regex, False, same_law, law)
        return cls(written, tuple(units), trailing, tuple(keys), regex, whole)

    @property
    def pieces(self) -> tuple[str, ...]:
        written = [piece for unit in self.units for piece in unit] + [self.trailing]
        return tuple(piece for piece in written if piece)

    @property
    def exact_by_index(self) -> bool:
        return self.keyed_whole

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        """Where the text cites what the keyword cites, from what the keyword writes before its first unit (else
        that unit's 第) to the end of what it writes after its last, left to right, none overlapping; for a keyword
        naming a law, also where 同法 stands for that law.

        >>> cited = Citation.read("民法709条")
        >>> text = "民法415条及び同法709条。商法5条、同法709条。"
        >>> [text[start:end] for start, end in cited.spans(text)]
        ['同法709条']
        """
        if self.same_law is None or SAME_LAW not in text:
            return self._written_spans(text)
        laws = same_law_laws(text)
        same = [span for span in self.same_law._written_spans(text) if laws.get(span[0], "").endswith(self.law)]
        return iter(sorted([*self._written_spans(text), *same]))

    def _written_spans(self, text: str) -> Iterator[tuple[int, int]]:
        from_number, done = not self.units[0][0], 0
        for found in self.regex.finditer(text):
            start = found.start()
            if from_number and start > done and text[start - 1] == "第":
                start -= 1
            yield start, found.end()
            done = found.end()

    @staticmethod
    def keys_in(text: str) -> set[str]:
        return citation_keys(text)

    @property
    def every_writing(self) -> bool:
        return True

    def candidates(self, index: DecisionIndex) -> BitMap:
        # Keys narrow by what is cited, grams by the words around it (民法); a keyword with words is still read on
        # the text, as a key does not hold all it writes (民法 two characters before 709条, not 刑民法). With 同法,
        # the law's name is still written somewhere before it.
        cited = index.holding_keys(self.keys)
        if self.same_law is not None:
            cited = cited | index.holding_keys(self.same_law.keys)
        return index.holding(self.pieces) & cited


def same_law_laws(text: str) -> dict[int, str]:
    """Where each 同法 before a unit starts, and the law it stands for: the last law named before it (one pass).

    >>> same_law_laws("民法415条、同法709条。同法1条"), same_law_laws("同法709条"), same_law_laws("民法1条同法2条")
    ({7: '民法', 14: '民法'}, {}, {4: '民法'})
    """
    return {at: law for _, law, at in _named(text) if text.startswith(SAME_LAW, at)}


def named_units(text: str) -> Iterator[tuple[Cited, str]]:
    """Each unit a normalised text cites right after a law's name, with the law: the name as written before it (its
    note and its 第 aside), or for 同法, the law named last before it.

    >>> [(unit.cited, law) for unit, law in named_units("被告は民法415条及び同法709条1項、本法3条、会社法423条")]
    [('415条', '民法'), ('709条', '民法'), ('423条', '会社法')]
    """
    return ((unit, law) for unit, law, _ in _named(text))


def _named(text: str) -> Iterator[tuple[Cited, str, int]]:
    """named_units, each with where its name (or its 同法) starts."""
    last = ""
    for unit in cited_units(text):
        if not unit.cited.endswith("条") and "条の" not in unit.cited:
            continue  # a 項 or 号 after a law's name is its number (平成29年法律第44号), not its article
        end = min(unit.after)
        name = _name_before(text, end)
        if name.endswith(SAME_LAW):
            if last:
                yield unit, last, end - len(SAME_LAW)
        elif name and name not in _NOT_A_LAW:
            last = name
            yield unit, name, end - len(name)


def _name_before(text: str, end: int) -> str:
    """The law's name ending at `end`, if the run of name characters there ends in 法 or 法律."""
    start = end
    while start > max(end - _MAX_NAME_CHARS, 0) and _NAME_CHARS.match(text, start - 1):
        start -= 1
    name = text[start:end]
    return name if name.endswith(("法", "法律")) else ""


class CitedArticle(NamedTuple):
    """An article a text cites after its law's name: the law as written, the article with the units right after it
    (709条第1項), the note on the law's version written with it (改正前のもの), and how many times."""

    law: str
    article: str
    note: str
    times: int


def articles_cited(text: str) -> list[CitedArticle]:
    """The articles a normalised text cites after a law's name (or 同法), each once, the most cited first (then in
    the order first cited); an article is its unit with the 項 and 号 right after it.

    >>> articles_cited("民法709条1項、同法709条1項。会社法423条、709条")  # doctest: +NORMALIZE_WHITESPACE
    [CitedArticle(law='民法', article='709条第1項', note='', times=2),
     CitedArticle(law='会社法', article='423条', note='', times=1)]
    >>> articles_cited("民法(平成29年法律第44号による改正前のもの)415条")[0].note
    '(平成29年法律第44号による改正前のもの)'
    """
    named = {unit.start: law for unit, law in named_units(text)}
    counts: dict[tuple[str, str, str], int] = {}
    chain: tuple[str, list[str], str] | None = None
    chain_end = -1
    for unit in cited_units(text):
        if unit.start in named or chain is None or chain_end not in unit.after or unit.cited.endswith("条"):
            _count(counts, chain)
            chain = (named[unit.start], [unit.cited], _note(text, unit)) if unit.start in named else None
        else:
            chain[1].append(unit.cited)
        chain_end = unit.end
    _count(counts, chain)
    ordered = sorted(counts.items(), key=lambda item: -item[1])  # stable: first cited first among equals
    return [CitedArticle(law, article, note, count) for (law, article, note), count in ordered]


def _note(text: str, unit: Cited) -> str:
    """The note on an amendment in brackets between a law and its unit (改正前のもの, 改正後の), else empty."""
    opening = unit.after[-1]
    note = text[opening : unit.start] if opening < unit.start and text[opening] == "(" else ""
    return note if "改正" in note else ""


def _count(counts: dict[tuple[str, str, str], int], chain: tuple[str, list[str], str] | None) -> None:
    if chain is not None:
        key = (chain[0], "第".join(chain[1]), chain[2])
        counts[key] = counts.get(key, 0) + 1


def citation_keys(text: str) -> set[str]:
    """The citation keys a normalised text holds: every key of every Citation that holds in it, and a few more.

    >>> sorted(citation_keys("民法709条1項"))  # doctest: +NORMALIZE_WHITESPACE
    ['cite-after-pair:民法|709条|1項', 'cite-after:9条|1項', 'cite-after:民法|709条', 'cite-pair:709条|1項',
     'cite:1項', 'cite:709条']
    """
    keys: set[str] = set()
    ends: dict[int, tuple[str, list[str]]] = {}  # where a unit ends: the unit and its windows, for the one after it
    for unit in cited_units(text):
        windows = [text[begin - _BEFORE : begin] for begin in unit.after if begin >= _BEFORE]
        keys.add(CITED + unit.cited)
        keys.update(f"{CITED_AFTER}{window}|{unit.cited}" for window in windows)
        for previous, previous_windows in (ends[begin] for begin in unit.after if begin in ends):
            keys.add(f"{CITED_PAIR}{previous}|{unit.cited}")
            keys.update(f"{CITED_AFTER_PAIR}{window}|{previous}|{unit.cited}" for window in previous_windows)
        ends[unit.end] = (unit.cited, windows)
    return keys
