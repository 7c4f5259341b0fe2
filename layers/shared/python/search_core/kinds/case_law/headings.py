"""The headings of a decision, and the heading path of any place in it: in which part (主文, 事実及び理由 > 第3
当裁判所の判断 > 2 > (1)) a passage, a page or a hit lies.

Japanese judgments number their parts in one customary order of levels: 第1, then 1, then (1), then ア, then (ア),
then a, then (a); 主文, 事実及び理由 (or 理由, 事実) head the whole. A line that starts with such a marker opens a part
of its level and closes every open part of its level or below. A heading is shown as its line's title: the marker
and the words up to the first space or 。 after them, at most TITLE_CHARS characters.

>>> text = "主文\\n1 被告は支払え。\\n\\n事実及び理由\\n第1 請求\\n本文\\n第3 当裁判所の判断\\n1 争点1\\n"
>>> text += "(1) 損害　損害は…"
>>> Outline.of(text).path_at(text.index("損害は"))
['事実及び理由', '第3 当裁判所の判断', '1 争点1', '(1) 損害']
>>> Outline.of(text).path_at(text.index("被告"))
['主文', '1 被告は支払え']
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass

TITLE_CHARS = 30
# What a heading line starts with, by level (NFKC: full-width digits and parentheses become ASCII).
_SECTIONS = ("主文", "事実及び理由", "理由", "事実")
_MARKERS = (
    r"第\d+(?=[ 　]|$)",
    r"\d+(?=[ 　.．]|$)",
    r"\(\d+\)",
    r"[ア-ン](?=[ 　]|$)",
    r"\([ア-ン]\)",
    r"[a-z](?=[ 　]|$)",
    r"\([a-z]\)",
)
# One pattern, a group per level (group 1 is level 1), so a line is matched once.
_MARKER = re.compile("|".join(f"({marker})" for marker in _MARKERS))
_TITLE_END = re.compile(r"[ 　。]")
_HEAD_CHARS = 12  # a marker is read from the line's first characters only


@dataclass(frozen=True)
class Heading:
    offset: int
    level: int
    title: str


@dataclass(frozen=True)
class Outline:
    """The headings of a text, in order, each with the path of headings above it."""

    offsets: list[int]
    paths: list[tuple[str, ...]]

    @classmethod
    def of(cls, text: str, until: int | None = None) -> Outline:
        """The outline of `text`, read up to `until` (the whole text if None): a path after it needs no more."""
        offsets: list[int] = []
        paths: list[tuple[str, ...]] = []
        open_parts: list[Heading] = []
        for heading in _headings(text, len(text) if until is None else until):
            open_parts = [part for part in open_parts if part.level < heading.level] + [heading]
            offsets.append(heading.offset)
            paths.append(tuple(part.title for part in open_parts))
        return cls(offsets, paths)

    def path_at(self, offset: int) -> list[str]:
        """The headings of the part `offset` lies in, outermost first ([] before the first heading)."""
        at = bisect_right(self.offsets, offset)
        return list(self.paths[at - 1]) if at else []


def heading_path(text: str, offset: int) -> list[str]:
    """The heading path at `offset`, reading the text only as far as that."""
    return Outline.of(text, until=offset).path_at(offset)


def _headings(text: str, until: int) -> list[Heading]:
    found = []
    start = 0
    while start <= until and start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        heading = _heading(text[start:end], start)
        if heading is not None:
            found.append(heading)
        start = end + 1
    return found


def _heading(line: str, offset: int) -> Heading | None:
    """The heading a line opens, if it starts with a marker (a whole line for 主文 and the like)."""
    stripped = line.strip(" 　")
    if stripped in _SECTIONS:
        return Heading(offset, 0, stripped)
    match = _MARKER.match(unicodedata.normalize("NFKC", stripped[:_HEAD_CHARS]))
    if match is None or match.lastindex is None:
        return None
    return Heading(offset, match.lastindex, _title(stripped, match.end()))


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
