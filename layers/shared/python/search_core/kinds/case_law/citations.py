"""Article citations matched as a lawyer reads them, over the normalised text as it is.

Decisions cite 「第七百九条」, 「709条1項」, 「民法709条の2第1項」; keywords are written 「第709条」, 「七百九条」,
「709条」. A keyword holding a citation (a number with 条, 項 or 号, perhaps with its 「の2」; the old 「ノ2」 is
normalised to it) becomes a pattern: its 「第」 optional, its numbers not part of longer ones (398条の2 is not
398条の22), without an 「の2」 of its own not followed by one, never the start of a word (3条件, 甲第3号証) and never
a case's number ((ワ)第1号). The text is not otherwise rewritten, so every other keyword (「条の」, 「第709」,
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
>>> Citation.read("民法709条1項").keys  # doctest: +NORMALIZE_WHITESPACE
('cite:709条', 'cite-after:民法|709条', 'cite:1項', 'cite-pair:709条|1項',
 'cite-after-pair:民法|709条|1項')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pyroaring import BitMap

from search_core.kinds.case_law.terms import DecisionIndex, PatternTerm

# A unit of a citation: 条, 項 or 号, unless it begins a word (3条件 is three conditions, 3項目 three items, 甲第3号証
# an exhibit, 2号機 a machine: red team).
_NOT_A_WORD_AFTER = {"条": "(?!件)", "項": "(?!目)", "号": "(?![証機])"}
_UNIT_MARK = "(" + "|".join(unit + after for unit, after in _NOT_A_WORD_AFTER.items()) + ")"
# A number of an article, paragraph or item with its optional 第 and の-number.
_CITATION = re.compile(rf"第?(\d+){_UNIT_MARK}(?:の(\d+))?")
# Every such unit of a text, overlapping (709条の2項 holds 709条の2 and 2項), from its first digit; never the number
# of a case ((ワ)第1号: red team).
_UNIT = re.compile(rf"(?<!\d)(?<!\)第)(?=(\d+){_UNIT_MARK}(?:の(\d+))?)")
# The kinds of key: a unit cited, a unit right after another, a unit after the two characters written before it (its
# window), a unit right after another that follows its window.
CITED, CITED_PAIR, CITED_AFTER, CITED_AFTER_PAIR = "cite:", "cite-pair:", "cite-after:", "cite-after-pair:"
# How many characters written before a unit a key names: enough for a law (民法, 社法 of 会社法), few keys a unit.
_BEFORE = 2


@dataclass(frozen=True)
class Citation(PatternTerm):
    """A keyword holding a citation: `text` as written (normalised), `regex` what it matches, `literal` the parts
    every match contains as written (its pieces, for the index's character pairs).

    >>> cited = Citation.read("709条")
    >>> list(cited.spans("第709条と1709条と709条")), cited.count_in("709条の2、709条"), cited.exact_by_index
    ([(0, 5), (12, 16)], 1, True)
    >>> [Citation.read(k).exact_by_index for k in ("709条1項", "民法第709条1項", "709条1項1号", "会社法423条")]
    [True, True, False, False]
    """

    text: str
    regex: re.Pattern[str]
    literal: tuple[str, ...]
    keys: tuple[str, ...]
    # Whether its keys say all the keyword writes: one unit or two in a row, perhaps after two characters (709条,
    # 民法第709条の2, 民法709条1項). Then a decision holds it exactly when it holds its keys; not so with three units
    # (two pairs need not be in one place) or more words (社法 before 423条 is not 会社法).
    keyed_whole: bool = False

    @classmethod
    def read(cls, written: str) -> Citation | None:
        """The keyword as a citation pattern, or None if it cites nothing (already normalised: Arabic numerals)."""
        # A unit right after ")" numbers a case ((受)第210号): the keyword finds it as written, a phrase
        found = [match for match in _CITATION.finditer(written) if written[match.start() - 1 : match.start()] != ")"]
        if not found:
            return None
        parts, pieces, keys, position, previous, window = [], [], [], 0, "", ""
        for match in found:
            before = written[position : match.start()]
            number, unit, sub = match.groups()
            cited = f"{number}{unit}" + (f"の{sub}" if sub else "")
            # A branch number is whole too: 398条の2 is not 398条の22 (red team)
            ending = r"(?!\d)" if sub else r"(?!の\d)" + _NOT_A_WORD_AFTER[unit]
            parts += [re.escape(before), rf"(?<!\))第?(?<!\)第)(?<!\d){re.escape(cited)}{ending}"]
            pieces += [before, cited]
            keys.append(CITED + cited)
            if previous and not before:
                keys.append(f"{CITED_PAIR}{previous}|{cited}")
                if window:
                    keys.append(f"{CITED_AFTER_PAIR}{window}|{previous}|{cited}")
            window = written[match.start() - _BEFORE : match.start()] if before and match.start() >= _BEFORE else ""
            if window:
                keys.append(f"{CITED_AFTER}{window}|{cited}")
            position, previous = match.end(), cited
        parts.append(re.escape(written[position:]))
        pieces.append(written[position:])
        befores, trailing = pieces[:-1:2], written[position:]
        whole = not trailing and len(befores) <= 2 and befores[1:] in ([], [""]) and len(befores[0]) in (0, _BEFORE)
        return cls(written, re.compile("".join(parts)), tuple(p for p in pieces if p), tuple(keys), whole)

    @property
    def pieces(self) -> tuple[str, ...]:
        return self.literal

    @property
    def exact_by_index(self) -> bool:
        return self.keyed_whole

    def candidates(self, index: DecisionIndex) -> BitMap:
        # Keys narrow by what is cited, grams by the words around it (民法); a keyword with words is still read on
        # the text, as a key does not hold all it writes (民法 two characters before 709条, not 刑民法).
        return index.holding(self.pieces) & index.holding_keys(self.keys)


def citation_keys(text: str) -> set[str]:
    """The citation keys a normalised text holds: every key of every Citation that holds in it, and a few more.

    >>> sorted(citation_keys("民法709条1項"))  # doctest: +NORMALIZE_WHITESPACE
    ['cite-after-pair:民法|709条|1項', 'cite-after:9条|1項', 'cite-after:民法|709条', 'cite-pair:709条|1項',
     'cite:1項', 'cite:709条']
    """
    keys: set[str] = set()
    ends: dict[int, tuple[str, list[str]]] = {}  # where a unit ends: the unit and its windows, for the one after it
    for match in _UNIT.finditer(text):
        number, unit, sub = match.groups()
        full = f"{number}{unit}" + (f"の{sub}" if sub else "")
        start = match.start()
        begins = (start, start - 1) if text[start - 1 : start] == "第" else (start,)
        windows = [text[begin - _BEFORE : begin] for begin in begins if begin >= _BEFORE]
        after = [ends[begin] for begin in begins if begin in ends]
        keys.add(CITED + full)
        keys.update(f"{CITED_AFTER}{window}|{full}" for window in windows)
        for previous, previous_windows in after:
            keys.add(f"{CITED_PAIR}{previous}|{full}")
            keys.update(f"{CITED_AFTER_PAIR}{window}|{previous}|{full}" for window in previous_windows)
        ends[start + len(full)] = (full, windows)
    return keys
