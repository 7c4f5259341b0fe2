"""Article citations in one searchable form, so that the spellings a lawyer treats as one article match each other.

Decisions cite 「第七百九条」, 「709条1項」, 「民法709条の2第1項」; keywords are written 「第709条」, 「七百九条」,
「709条」. After `normalize` (kanji numerals → Arabic), each number of an article, paragraph or item (条, 項, 号,
with its 「の2」) is written between two marks and its 「第」 dropped, in the text and in the keywords alike:

>>> mark("民法第709条の2第1項")
'民法\\x1f709条の2\\x1e\\x1f1項\\x1e'

So 「709条」 finds 「709条1項」 and 「第709条」, while the marks keep it from 「1709条」 and 「709条の2」: a substring
search over marked text matches whole citations only.
"""

from __future__ import annotations

import re

START, END = "\x1f", "\x1e"
# A number of an article, paragraph or item, its optional 第 and の-number; not inside a longer number.
_CITATION = re.compile(r"第?(?<!\d)(\d+)([条項号])(?:の(\d+))?")


def mark(text: str) -> str:
    """`text` (already normalised) with every citation marked.

    >>> [mark(t) == mark(u) for t, u in (("第709条", "709条"), ("709条", "1709条"), ("709条", "709条の2"))]
    [True, False, False]
    """
    return _CITATION.sub(_marked, text)


def readable(term: str) -> str:
    """A marked term as the agent wrote it, without marks (for messages and for finding it in the original).

    >>> readable(mark("第709条1項"))
    '709条1項'
    """
    return term.replace(START, "").replace(END, "")


def _marked(match: re.Match[str]) -> str:
    number, unit, sub = match.groups()
    return f"{START}{number}{unit}{f'の{sub}' if sub else ''}{END}"
