"""The headings of a decision, and the heading path of any place in it: in which part (主文, 事実及び理由 > 第3
当裁判所の判断 > 2 > (1)) a passage, a page or a hit lies.

Japanese judgments number their parts in one customary order of levels: 第1, then 1, then (1), then ア, then (ア),
then a, then (a); 主文, 事実及び理由 (or 理由, 事実) head the whole. A line that starts with such a marker opens a part
of its level and closes every open part of its level or below. A heading is shown as its line's title: the marker
and the words up to the first space or 。 after them, at most TITLE_CHARS characters.

>>> text = "主文\\n1 被告は支払え。\\n\\n事実及び理由\\n第1 請求\\n本文\\n第3 当裁判所の判断\\n1 争点1\\n"
>>> text += "(1) 損害　損害は…"
>>> heading_path(text, text.index("損害は"))
['事実及び理由', '第3 当裁判所の判断', '1 争点1', '(1) 損害']
>>> heading_path(text, text.index("被告"))
['主文', '1 被告は支払え']
"""

from __future__ import annotations

import math
import re
import time
import unicodedata
from collections.abc import Generator
from dataclasses import dataclass
from functools import cached_property

from search_core.fulltext.normalize import normalize

TITLE_CHARS = 30
# How far back a heading path is read, in lines: far more than any part of a real judgment runs without a heading.
LINES_READ_BACK = 5_000
# What a heading line starts with, by level (NFKC: full-width digits and parentheses become ASCII).
_MAIN = "主文"
_SECTIONS = (_MAIN, "事実及び理由", "理由", "事実")
# An appendix (別紙, （別紙）, 別紙1 物件目録) heads a whole section too: its lists are no part of the last 第N
# (an exhibit list is not 第4 結論 > 5).
_APPENDIX = re.compile(r"[(【\[]?別紙[0-9]*[)】\]]?(?:[ 　].{0,25})?")
# A number counts a part only if it is not a quantity: never a year, a sum or a ratio (2019 年, 1.5倍, 3 万円), and
# a numbered marker is not one that a sentence refers to ((1)の事実, (1)は).
_NOT_A_QUANTITY = r"(?![ 　]*[年月日条項号回円万億%倍])"
_NOT_REFERRED_TO = r"(?![のはがをにでとへや、。,])"
_MARKERS = (
    # A criminal judgment's bracketed parts (【事実認定の補足説明】) hold its 第1, 第2 … (_BRACKETED)
    r"【[^】]{1,30}】",
    rf"第\d{{1,3}}(?=[ 　]|$){_NOT_A_QUANTITY}",
    rf"\d{{1,3}}(?=[ 　]|\.(?!\d)|$){_NOT_A_QUANTITY}",
    rf"\(\d{{1,3}}\){_NOT_REFERRED_TO}",
    r"[ア-ン](?=[ 　]|$)",
    rf"\([ア-ン]\){_NOT_REFERRED_TO}",
    r"[a-z](?=[ 　]|$)",
    rf"\([a-z]\){_NOT_REFERRED_TO}",
)
# One pattern, a group per level (group 1 is level 1), so a line is matched once.
_BRACKETED, _NUMBERED = 1, 2  # the levels of 【罪となるべき事実】 and of 第1, 第2 …
# A bracketed heading is a whole line of words, and only in a judgment whose reasons open with one (a criminal
# judgment's 【罪となるべき事実】, brackets_open_parts): a patent's description quoted in 第2 (【実施例】【0035】表1に
# 示す…) or its paragraph numbers (【0035】) open no part.
_WHOLE_BRACKET = re.compile(r"【[^】]{1,30}】")
# A patent's labels, which its description quoted in a judgment puts on lines of their own: never a part.
_PATENT_LABEL = re.compile(
    r"【(?:[0-9]+|(?:請求項|図|表|化|数|特許文献|非特許文献)[0-9]*"
    r"|[^】]*(?:技術分野|背景技術|発明|課題|手段|効果|実施|産業上|符号|要約|選択図|書類名|先行技術))】"
)
# What no heading line begins with: hiragana, or a kanji that is none of 第, 主文, 事実, 理由, 別紙 or a numeral, as
# most lines of a judgment begin (原告は, 被告は, その), so they are passed over without reading them in normal form.
_NEVER_OPENS = re.compile("[\u3041-\u309f]|(?![第主事理別〇一二三四五六七八九十百千])[\u4e00-\u9fff]")
# How many lines of the reasons are read for their first heading (brackets_open_parts).
_OPENING_LINES = 50
_MARKER = re.compile("|".join(f"({marker})" for marker in _MARKERS))
_TITLE_END = re.compile(r"[ 　。]")
_LINE_BREAK = re.compile("[\r\n]")
_HEAD_CHARS = 12  # a marker is read from the line's first characters only
# A line longer than this is no appendix heading, whatever its NFKC form, so no longer line is normalised whole
# (5,000 lines of 1,000 half-width kana, each normalised, would make one heading path take 0.6 s).
_APPENDIX_CHARS = 80


@dataclass(frozen=True)
class Heading:
    level: int
    title: str
    marker: str = ""  # in normal form (第三 is 第3): how a wanted name is read


def heading_path(text: str, offset: int) -> list[str]:
    """The headings of the part `offset` lies in, outermost first ([] before the first heading).

    Read backwards from the offset: the nearest heading is the innermost part, the nearest before it of a higher
    level (a smaller number) its parent, and so on up to a whole section (主文, 事実及び理由). At most
    LINES_READ_BACK lines are read, so a text of a million heading lines costs no more than a real judgment (read
    forwards, it takes 48 s); a part opened further back is then left out of the path.
    """
    brackets = brackets_open_parts(text)
    path: list[str] = []
    above = len(_MARKERS) + 1  # only a heading of a level above every one found so far opens an enclosing part
    start = _line_start(text, offset)
    for _ in range(LINES_READ_BACK):
        end = _line_end(text, start)
        heading = _heading(text[start : len(text) if end < 0 else end], brackets)
        if heading is not None and heading.level < above:
            path.insert(0, heading.title)
            above = heading.level
        if above == 0 or start == 0:
            break
        start = _line_start(text, start - 1)
    return path


def brackets_open_parts(text: str) -> bool:
    """Whether the text's bracketed lines are headings: its reasons (past 主文) open with one, as a criminal
    judgment's do (【罪となるべき事実】). Only section lines are read until the reasons begin, and then at most
    _OPENING_LINES lines, so a heading path costs no more for it.

    >>> brackets_open_parts("主文\\n1 棄却\\n事実及び理由\\n理由\\n【罪となるべき事実】\\n被告人は")
    True
    >>> brackets_open_parts("主文\\n棄却\\n事実及び理由\\n第1 請求\\n【実施例】\\n")
    False
    """
    start, in_reasons, read = 0, False, 0
    for _ in range(LINES_READ_BACK):
        end = _line_end(text, start)
        line = text[start : len(text) if end < 0 else end]
        if (stripped := line.strip(" 　")) in _SECTIONS:
            in_reasons = stripped != _MAIN
        elif in_reasons:
            heading = _heading(line, brackets=True)
            if heading is not None and heading.level:
                return heading.level == _BRACKETED
            read += 1
        if end < 0 or read >= _OPENING_LINES:
            return False
        start = end + 2 if text.startswith("\r\n", end) else end + 1
    return False


def _line_start(text: str, before: int) -> int:
    """Where the line holding `before` begins: after a LF, or a CR alone (some texts end their lines with CR).
    Looked for back in growing windows, so it costs the line's length, not the text's (searched back to the last
    LF, 20 passages of a CR text take 9 s)."""
    window = 256
    while True:
        low = max(before - window, 0)
        found = max(text.rfind("\n", low, before), text.rfind("\r", low, before))
        if found >= 0 or low == 0:
            return found + 1
        window *= 4


def _line_end(text: str, start: int) -> int:
    """Where the line from `start` ends (its LF, or a CR), -1 at the end of the text."""
    found = _LINE_BREAK.search(text, start)
    return found.start() if found else -1


def _heading(line: str, brackets: bool) -> Heading | None:
    """The heading a line opens, if it starts with a marker (a whole line for 主文 and the like, and for a bracketed
    heading, which opens a part only where `brackets` are headings)."""
    stripped = line.strip(" 　")
    if _NEVER_OPENS.match(stripped):
        return None
    appendix = (
        len(stripped) <= _APPENDIX_CHARS
        and "別" in stripped[:3]
        and _APPENDIX.fullmatch(unicodedata.normalize("NFKC", stripped))
    )
    if stripped in _SECTIONS or appendix:
        return Heading(0, stripped, unicodedata.normalize("NFKC", stripped))
    head = normalize(stripped[:_HEAD_CHARS])  # kanji numerals too: 第三 is 第3, in the text as written or searched
    match = _MARKER.match(head)
    if match is None or match.lastindex is None:
        return None
    if match.lastindex == _BRACKETED and not (brackets and _a_bracketed_part(stripped)):
        return None
    marker = head[: match.end()]
    return Heading(match.lastindex, _title(stripped, _written_end(stripped, marker)), marker)


def _a_bracketed_part(line: str) -> bool:
    """Whether a bracketed line names a part: a whole line of words in brackets, not a patent's label.

    >>> lines = ("【量刑の理由】", "【請求項１】", "【００３５】", "【発明の効果】", "【理由】本")
    >>> [_a_bracketed_part(line) for line in lines]
    [True, False, False, False, False]
    """
    bracket = unicodedata.normalize("NFKC", line)
    return _WHOLE_BRACKET.fullmatch(bracket) is not None and _PATENT_LABEL.fullmatch(bracket) is None


def _written_end(line: str, marker: str) -> int:
    """Where a marker read in normal form ends in the line as written (第二十三 is 第23: four characters, not three).

    >>> _written_end("第二十三　判断", "第23"), _written_end("（１）当事者", "(1)")
    (4, 3)
    """
    if unicodedata.normalize("NFKC", line[: len(marker)]) == marker:  # as most are written: 第1, （１）, ア
        return len(marker)
    for end in range(len(marker), min(len(line), len(marker) + _HEAD_CHARS) + 1):
        if normalize(line[:end]) == marker:
            return end
    return len(marker)


def _title(line: str, marker_end: int) -> str:
    """The marker and the words after it up to the first space or 。 (a heading line often runs on into text).

    >>> _title("（１）当事者の主張　原告は、本件契約", 3), _title("第1　争点1について", 2)
    ('（１）当事者の主張', '第1　争点1について')
    """
    body = line[marker_end:].lstrip(" 　")
    end = _TITLE_END.search(body)
    words = body[: end.start()] if end else body
    title = (line[:marker_end] + line[marker_end : len(line) - len(body)] + words).rstrip(" 　")
    return title if len(title) <= TITLE_CHARS else title[: TITLE_CHARS - 1] + "…"


# How many lines a search for a heading reads: far more than any real judgment has (a hostile text of a million
# lines stops here, said so).
LINES_READ_FORWARD = 100_000
_LINES_PER_CLOCK = 1_024  # lines read between two looks at the clock
# A heading as an agent names it: markers, perhaps joined by の (第3の2, 第３の２の(1)), or words of its title. A
# bare letter (ア, a) is a marker only alone or before の: ソフトウエア is a title.
_QUERY_MARKER = re.compile(r"第\d+|\(\d+\)|\([ア-ン]\)|\([a-z]\)|\d+|(?P<letter>[ア-ン]|[a-z])")
_QUERY_SPLIT = re.compile(r"[\s>、,]+")
# What a title word must hold besides marker signs: "(", "第" or "の" alone name no part.
_NOT_A_WORD = re.compile(r"[()第の]*")


@dataclass(frozen=True)
class _Open:
    """An open part while a text is read forwards: its level, its marker in normal form, its title as written (and
    in normal form, read only when a part is named by its words)."""

    level: int
    marker: str
    written: str

    @cached_property
    def title(self) -> str:
        return normalize(self.written)


def heading_offset(text: str, wanted: str, deadline: float = math.inf) -> int | None:
    """Where the first line opening the part named by `wanted` begins: its markers or title words outermost first,
    each part perhaps skipping levels between (第3の2, 第３ > ２ > (1), 当裁判所の判断, 主文); None if no part of
    the first LINES_READ_FORWARD lines is so named.

    >>> text = "主文\\n1 棄却\\n事実及び理由\\n第1 請求\\n1 本文\\n第3 当裁判所の判断\\n1 争点\\n2 損害\\n(1) 額\\n"
    >>> wanted = ("第3の2", "第３ > ２ > （１）", "当裁判所の判断", "2")
    >>> [text[heading_offset(text, q) :].split("\\n")[0] for q in wanted]
    ['2 損害', '(1) 額', '第3 当裁判所の判断', '2 損害']
    >>> heading_offset(text, "第4") is None
    True
    """
    named = headings_named(text, wanted, deadline, most=1)
    return named[0][0] if named else None


def headings_named(
    text: str, wanted: str, deadline: float = math.inf, most: int = 1
) -> list[tuple[int, tuple[str, ...]]]:
    """The first `most` heading lines opening a part named by `wanted` (as heading_offset reads a name): where each
    begins and its path as written.

    >>> text = "第1 当事者の主張\\n1 争点2\\n第2 当裁判所の判断\\n1 争点2について\\n"
    >>> [path for _, path in headings_named(text, "争点2", most=5)]
    [('第1 当事者の主張', '1 争点2'), ('第2 当裁判所の判断', '1 争点2について')]
    """
    parts = [_query_part(part) for part in _QUERY_SPLIT.split(normalize(wanted)) if part]
    wanted_parts = [piece for part in parts for piece in part]
    found: list[tuple[int, tuple[str, ...]]] = []
    if not wanted_parts:
        return found
    for start, path in _opened(text, deadline):
        if _names(wanted_parts, path):
            found.append((start, tuple(part.written for part in path)))
            if len(found) == most:
                break
    return found


def outline(text: str, deadline: float = math.inf) -> list[str]:
    """The titles of the outermost parts (主文, 事実及び理由, 第1 …) as written, in order: what an agent may ask for
    by name."""
    return [path[-1].written for _, path in _opened(text, deadline) if path[-1].level <= _NUMBERED]


def _query_part(part: str) -> list[tuple[str, bool]]:
    """A part of a wanted heading: its markers (第3の2 → 第3, 2), or itself as words of a title ([] if it is only
    marker signs, which name nothing).

    >>> [_query_part(part) for part in ("第3の2", "(1)ア", "ソフトウエア", "(")]
    [[('第3', True), ('2', True)], [('(1)', True), ('ア', True)], [('ソフトウエア', False)], []]
    """
    markers, position = [], 0
    while position < len(part):
        found = _QUERY_MARKER.match(part, position)
        if found is None:
            break
        position = found.end()
        if part.startswith("の", position):
            position += 1
        elif found.group("letter") and position < len(part):  # letters running on: a word
            break
        markers.append(found.group())
    else:
        return [(marker, True) for marker in markers]
    return [] if _NOT_A_WORD.fullmatch(part) else [(part, False)]


def _opened(text: str, deadline: float = math.inf) -> Generator[tuple[int, list[_Open]], None, bool]:
    """Each heading line's start, with the path of open parts it leaves (outermost first, itself last); returns
    whether every line was read (LINES_READ_FORWARD lines at most, a CRLF ending one line). Raises TimeoutError past
    `deadline` (time.monotonic)."""
    path: list[_Open] = []
    start = 0
    brackets = brackets_open_parts(text)
    for read in range(LINES_READ_FORWARD):
        if not read % _LINES_PER_CLOCK and time.monotonic() > deadline:
            raise TimeoutError("reading a decision's headings ran past its deadline")
        end = _line_end(text, start)
        line = text[start : len(text) if end < 0 else end]
        opened = _opening(line, brackets)
        if opened is not None:
            path = [part for part in path if part.level < opened.level] + [opened]
            yield start, path
        if end < 0:
            return True
        start = end + 2 if text.startswith("\r\n", end) else end + 1
    return start >= len(text)


def _opening(line: str, brackets: bool) -> _Open | None:
    heading = _heading(line, brackets)
    if heading is None:
        return None
    return _Open(heading.level, heading.marker, heading.title)


def _names(wanted: list[tuple[str, bool]], path: list[_Open]) -> bool:
    """Whether the wanted parts name this path: the last names its innermost part, the others, in order, it or
    parts around it (levels between may be skipped; 第3 当裁判所の判断 names one heading by its number and
    title)."""
    *outer, (last, last_is_marker) = wanted
    if not _called(path[-1], last, last_is_marker):
        return False
    at = 0
    for name, is_marker in outer:
        while at < len(path) and not _called(path[at], name, is_marker):
            at += 1
        if at == len(path):
            return False
    return True


def _called(part: _Open, name: str, is_marker: bool) -> bool:
    return part.marker == name if is_marker else name in part.title


@dataclass(frozen=True)
class Section:
    """A heading's part of a decision: from its heading line's start to where a heading of its level or above opens
    (or the text ends); `path` is its heading and those around it, outermost first, as written."""

    start: int
    end: int
    level: int
    path: tuple[str, ...]


def sections(text: str, deadline: float = math.inf) -> tuple[list[Section], bool]:
    """Every heading's part in the order the headings come, and whether every line was read (a text of more than
    LINES_READ_FORWARD lines is read that far, its parts beyond left out).

    >>> text = "主文\\n1 棄却\\n事実及び理由\\n第1 請求\\n本文\\n第2 判断\\n1 争点\\n"
    >>> [(s.path[-1], text[s.start : s.end].count("\\n")) for s in sections(text)[0]]
    [('主文', 2), ('1 棄却', 1), ('事実及び理由', 5), ('第1 請求', 2), ('第2 判断', 2), ('1 争点', 1)]
    """
    opened: list[tuple[int, int, tuple[str, ...]]] = []  # each part's start, level and path
    ends: list[int] = []
    open_parts: list[int] = []  # indices into opened of the parts still open, outermost first
    headings = _opened(text, deadline)
    while True:
        try:
            start, path = next(headings)
        except StopIteration as read:
            parts = [Section(begin, end, depth, names) for (begin, depth, names), end in zip(opened, ends, strict=True)]
            return parts, bool(read.value)
        level = path[-1].level
        while open_parts and opened[open_parts[-1]][1] >= level:
            ends[open_parts.pop()] = start
        open_parts.append(len(opened))
        opened.append((start, level, tuple(part.written for part in path)))
        ends.append(len(text))


def section_at(
    text: str, wanted: str, deadline: float = math.inf, most: int = 6, every: list[Section] | None = None
) -> tuple[Section, list[Section]] | None:
    """The part named by `wanted` (as heading_offset reads a name), with where it ends, and the other parts so named
    (of the first `most`). Of several, the first inside the court's own reasoning (reasoning_span) is the one read:
    争点2 names the parties' arguments on it and the court's answer alike, and the court's is what is asked for.
    `every` is the text's sections (`sections`) when the caller has read them.

    >>> text = "第1 当事者の主張\\n1 争点2\\n原告\\n第2 当裁判所の判断\\n1 争点2について\\n認める\\n"
    >>> found = section_at(text, "争点2")
    >>> found is not None and (found[0].path[-1], [other.path[-1] for other in found[1]])
    ('1 争点2について', ['1 争点2'])
    """
    named = {start for start, _ in headings_named(text, wanted, deadline, most)}
    if not named:
        return None
    every = sections(text, deadline)[0] if every is None else every
    parts = [section for section in every if section.start in named]
    reasoning = reasoning_in(text, every)
    inside = [part for part in parts if reasoning and reasoning[0] <= part.start < reasoning[1]]
    chosen = (inside or parts)[0]
    return chosen, [part for part in parts if part is not chosen]


# What a heading of the court's own reasoning holds (第3 当裁判所の判断, 争点に対する判断).
REASONING = "判断"
# A heading of the court's own reasoning: 判断 (当裁判所の判断, 争点に対する判断), or a criminal judgment's bracketed
# explanation or reasons (【事実認定の補足説明】, 【量刑の理由】, 【一部無罪の理由】), which have no 判断 heading.
_COURTS_OWN = re.compile(r"判断|^[ 　]*【[^】]*(?:補足説明|理由)】")


def _heading_line(text: str, start: int) -> str:
    """The whole heading line from `start` (a title is cut at TITLE_CHARS; 判断 may come later in a long one)."""
    end = _line_end(text, start)
    return unicodedata.normalize("NFKC", text[start : len(text) if end < 0 else end])


def reasoning_span(text: str, deadline: float = math.inf) -> tuple[int, int] | None:
    """Where the court's own reasoning lies: from the first to the last of the outermost parts whose heading holds
    判断 (第3 当裁判所の判断; 第3 争点1に対する判断 and 第4 争点2に対する判断 together) or, in a criminal judgment,
    is its bracketed explanation or reasons (【事実認定の補足説明】 to 【量刑の理由】); None if no heading is.

    >>> text = "事実及び理由\\n第1 請求\\n原告の主張\\n第2 当裁判所の判断\\n1 争点\\n認める\\n"
    >>> span = reasoning_span(text)
    >>> span is not None and text[span[0] : span[1]]
    '第2 当裁判所の判断\\n1 争点\\n認める\\n'
    >>> text = "理由\\n【罪となるべき事実】\\n刺した\\n【事実認定の補足説明】\\n第1 争点\\n検察官の主張\\n"
    >>> text += "【量刑の理由】\\n重い\\n"
    >>> span = reasoning_span(text)
    >>> span is not None and text[span[0] : span[1]].split("\\n")[:3]
    ['【事実認定の補足説明】', '第1 争点', '検察官の主張']
    """
    return reasoning_in(text, sections(text, deadline)[0])


def reasoning_in(text: str, parts: list[Section]) -> tuple[int, int] | None:
    """reasoning_span, of the text's parts already read."""
    judged = [part for part in parts if _COURTS_OWN.search(_heading_line(text, part.start))]
    if not judged:
        return None
    outermost = min(len(part.path) for part in judged)
    spans = [(part.start, part.end) for part in judged if len(part.path) == outermost]
    return spans[0][0], spans[-1][1]
