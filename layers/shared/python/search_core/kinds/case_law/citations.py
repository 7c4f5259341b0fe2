"""Article citations matched as a lawyer reads them, over the normalised text as it is.

Decisions cite 「第七百九条」, 「709条1項」, 「民法709条の2第1項」; keywords are written 「第709条」, 「七百九条」,
「709条」. A keyword holding a citation (a number with 条, 項 or 号, perhaps with its 「の2」) becomes a pattern: its
「第」 optional, its number not part of a longer one, and, without an 「の2」 of its own, not followed by one. The text
is not rewritten, so every other keyword (「条の」, 「第709」, 「(ワ)第345」) is still a plain substring.

>>> Citation.read("民法第709条").regex.pattern
'民法第?(?<!\\\\d)709条(?!の\\\\d)'
>>> [Citation.read("709条").holds(t) for t in ("第709条1項", "1709条", "709条の2", "民法709条")]
[True, False, False, True]
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date

from search_core.kinds.case_law.terms import Term

# A number of an article, paragraph or item with its optional 第 and の-number.
_CITATION = re.compile(r"第?(\d+)([条項号])(?:の(\d+))?")


@dataclass(frozen=True)
class Citation(Term):
    """A keyword holding a citation: `text` as written (normalised), `regex` what it matches, `literal` the parts
    every match contains as written (its pieces, for the index's character pairs).

    >>> cited = Citation.read("709条")
    >>> list(cited.spans("第709条と1709条と709条")), cited.count_in("709条の2、709条"), cited.exact_by_index
    ([(0, 5), (12, 16)], 1, False)
    """

    text: str
    regex: re.Pattern[str]
    literal: tuple[str, ...]

    @classmethod
    def read(cls, written: str) -> Citation | None:
        """The keyword as a citation pattern, or None if it cites nothing (already normalised: Arabic numerals)."""
        found = list(_CITATION.finditer(written))
        if not found:
            return None
        parts, pieces, position = [], [], 0
        for match in found:
            before = written[position : match.start()]
            number, unit, sub = match.groups()
            cited = f"{number}{unit}" + (f"の{sub}" if sub else "")
            parts += [re.escape(before), rf"第?(?<!\d){re.escape(cited)}" + ("" if sub else r"(?!の\d)")]
            pieces += [before, cited]
            position = match.end()
        parts.append(re.escape(written[position:]))
        pieces.append(written[position:])
        return cls(written, re.compile("".join(parts)), tuple(p for p in pieces if p))

    @property
    def pieces(self) -> tuple[str, ...]:
        return self.literal

    def holds(self, text: str, day: date | None = None) -> bool:
        return self.regex.search(text) is not None

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        return (match.span() for match in self.regex.finditer(text))

    def count_in(self, text: str) -> int:
        return len(self.regex.findall(text))
