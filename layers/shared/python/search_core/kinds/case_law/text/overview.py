"""What a case is about, in the court's own words: the sentence of 事案の概要 that begins 「本件は」 (本件は、原告が…を
求める事案である。), shown with each hit so that the agent needs no call per decision (findInCase 本件は) to learn it.

>>> overview("第１　請求\\n第２　事案の概要\\n１　本件は、原告が損害賠償を求める事案である。以下略")
'本件は、原告が損害賠償を求める事案である。'
>>> overview("本件は、Ｐ株式会社（以下「Ｐ社」という。）の株主が損害賠償を求める事案である。２　前提事実")
'本件は、Ｐ株式会社（以下「Ｐ社」という。）の株主が損害賠償を求める事案である。'
>>> overview("理由のみ。") is None
True
"""

from __future__ import annotations

import re

# How far into 事実及び理由 the sentence is looked for: 事案の概要 opens it, after the claims.
_LOOKED_FOR_CHARS = 20_000
# The most of the sentence a hit shows (cut with …): the longest real ones run to about three lines.
OVERVIEW_CHARS = 200
# 本件は where a sentence begins: at a line's start, perhaps after its number (1, (1), 第1, ア), or after a 。
# (「被告は、本件は時効により…」 is no overview).
_OPENING = re.compile(
    r"(?:^|(?<=[。\n\r]))[ 　]*(?:第?[0-9０-９]{1,3}|[(（][0-9０-９]{1,3}[)）]|[ア-ン])?[ 　]*(?P<opening>本件は)",
    re.MULTILINE,
)
# A 。 inside brackets (（以下「Ｐ社」という。）, 【資料。】) does not end the sentence; a line break always does.
_OPEN, _CLOSE = "（(「『［[【〔〈《", "）)」』］]】〕〉》"


def overview(facts_and_reasons: str | None) -> str | None:
    """The first sentence of 事実及び理由 that begins 「本件は」, at most OVERVIEW_CHARS (cut with …); None if none
    begins in its first _LOOKED_FOR_CHARS characters (a sentence that begins there is read whole, past them)."""
    text = facts_and_reasons or ""
    found = _OPENING.search(text, 0, _LOOKED_FOR_CHARS)
    if found is None:
        return None
    start = found.start("opening")
    sentence = _sentence(text[start : start + 4 * OVERVIEW_CHARS])
    return sentence if len(sentence) <= OVERVIEW_CHARS else sentence[:OVERVIEW_CHARS] + "…"


def _sentence(text: str) -> str:
    """`text` up to its first 。 outside brackets or its first line break, or all of it."""
    depth = 0
    for index, char in enumerate(text):
        if char in _OPEN:
            depth += 1
        elif char in _CLOSE:
            depth = max(depth - 1, 0)
        elif char in "\n\r":
            return text[:index]
        elif char == "。" and depth == 0:
            return text[: index + 1]
    return text
