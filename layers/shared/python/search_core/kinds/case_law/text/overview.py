"""What a case is about, in the court's own words: the sentence of 事案の概要 that begins 「本件は」 (本件は、原告が…を
求める事案である。), shown with each hit so that the agent needs no call per decision (findInCase 本件は) to learn it.

>>> overview("第１　請求\\n第２　事案の概要\\n１　本件は、原告が損害賠償を求める事案である。以下略")
'本件は、原告が損害賠償を求める事案である。'
>>> overview("本件は、Ｐ株式会社（以下「Ｐ社」という。）の株主が損害賠償を求める事案である。２　前提事実")
'本件は、Ｐ株式会社（以下「Ｐ社」という。）の株主が損害賠償を求める事案である。'
>>> overview("理由のみ。") is None
True
>>> overview("【量刑の理由】\\n本件は悪質である。") is None  # a sentence that does not state the case
True

In an appeal, what the courts below decided, also in the court's own words (the first instance's result is in no
appellate 主文, and agents spent a call to find it):

>>> decided_below("第２　事案の概要\\n１　本件は、…である。原審（東京地裁）は、請求を棄却したため、原告が控訴した。")
[(20, '原審（東京地裁）は、請求を棄却したため、原告が控訴した。')]
"""

from __future__ import annotations

import re
from itertools import islice

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
# What a sentence that states the case holds (本件は、…を求める事案である), unlike 本件は悪質である in 【量刑の理由】.
_A_CASE = re.compile("事案|求め|請求|訴え|控訴|上告|抗告|申立て")
# A 。 inside brackets (（以下「Ｐ社」という。）, 【資料。】) does not end the sentence; a line break always does.
_OPEN, _CLOSE = "（(「『［[【〔〈《", "）)」』］]】〕〉》"


def overview(facts_and_reasons: str | None) -> str | None:
    """The first sentence of 事実及び理由 that begins 「本件は」, at most OVERVIEW_CHARS (cut with …); None if none
    begins in its first _LOOKED_FOR_CHARS characters (a sentence that begins there is read whole, past them)."""
    text = facts_and_reasons or ""
    for found in islice(_OPENING.finditer(text, 0, _LOOKED_FOR_CHARS), _MOST_READ):
        start = found.start("opening")
        sentence = _sentence(text[start : start + 4 * OVERVIEW_CHARS])
        if _A_CASE.search(sentence):
            return sentence if len(sentence) <= OVERVIEW_CHARS else sentence[:OVERVIEW_CHARS] + "…"
    return None


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


# A sentence whose subject is a court below (原審, 第1審, 原判決), perhaps with its case in brackets (（…（ワ）…）),
# where a sentence begins; the sentence says what it decided only if it holds a disposal.
_BELOW = re.compile(
    r"(?:^|(?<=[。\n\r]))[ 　]*(?:第?[0-9０-９]{1,3}|[(（][0-9０-９]{1,3}[)）]|[ア-ン])?[ 　]*"
    r"(?P<opening>(?P<court>原審|原判決|第[1１一]審(?:判決)?|一審(?:判決)?)"
    r"(?:[(（](?:[^()（）]|[(（][^()（）]{0,20}[)）]){0,80}[)）])?は、)",
    re.MULTILINE,
)
_DISPOSAL = re.compile("認容|棄却|却下|取り消|変更|有罪|無罪|懲役|禁錮|罰金")
# What a disposal of the case names (not a ruling on evidence: 文書提出命令の申立てを却下した), and what a party
# arguing about the decision below writes (原判決は、…棄却したものであって、取り消されるべきである).
_CASE = re.compile("請求|訴え|控訴を|被告人|懲役|禁錮|罰金|有罪|無罪")
_ARGUED = re.compile("べきである|主張|誤りである|違法である|不当である")
# What a court below is called: the first instance, or the court appealed from.
_FIRST_INSTANCE = re.compile("第[1１一]審|一審")
# The most of each sentence a hit shows (cut with …).
BELOW_CHARS = 300
# How many sentences opening 本件は, or on a court below, are read for the one that states the case or the two that
# say what the courts below decided: a real judgment has a few; a hostile one opening thousands of sentences so
# would cost a second a hit.
_MOST_READ = 30


def decided_below(facts_and_reasons: str | None) -> list[tuple[int, str]]:
    """The first sentence on what the first instance decided and the first on what the court appealed from decided
    (one when they are one court, as in a 控訴審), in order, each with where it begins and at most BELOW_CHARS (cut
    with …); [] if no such sentence begins in the first _LOOKED_FOR_CHARS characters of 事実及び理由.

    >>> decided_below("（５）　第１審は、請求を認容し、控訴されたが、原審は、控訴を棄却した。\\n３　原審は、…")
    [(4, '第１審は、請求を認容し、控訴されたが、原審は、控訴を棄却した。')]
    >>> decided_below("原判決は、本件明細書を正解しないものである。")
    []
    """
    text = facts_and_reasons or ""
    found: dict[bool, tuple[int, str]] = {}  # by whether it is the first instance's: where it begins, the sentence
    for match in islice(_BELOW.finditer(text, 0, _LOOKED_FOR_CHARS), _MOST_READ):
        first = _FIRST_INSTANCE.match(match.group("court")) is not None
        start = match.start("opening")
        sentence = _sentence(text[start : start + 4 * BELOW_CHARS])
        if (
            first not in found
            and _DISPOSAL.search(sentence)
            and _CASE.search(sentence)
            and not _ARGUED.search(sentence)
        ):
            found[first] = start, sentence if len(sentence) <= BELOW_CHARS else sentence[:BELOW_CHARS] + "…"
        if len(found) == 2:
            break
    return sorted(found.values())
