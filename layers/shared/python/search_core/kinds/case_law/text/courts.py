"""Court names in one canonical, unabbreviated form, so 東京地裁 and 東京地方裁判所 find each other, and the levels of
courts a `court` argument may name instead of one court.

How an argument matches a decision's court (store/index.py applies it):

- a level alone (最高裁, 高裁, 地裁, 家裁, 簡裁, or the full name) matches every court of that level, wherever the level
  stands in the name: 高裁 is every 高等裁判所 with its 支部, and 知的財産高等裁判所 (a high court), never 最高裁判所;
- anything else is a court's name or its beginning (東京地裁, 知財高裁, 東京, 立川支部): it matches where a court's
  name starts (at the start, or after 裁判所 or 支部), so 東京地裁 includes 東京地方裁判所立川支部 and its 民事部;
  it never matches inside a longer word: 大阪 is not 東大阪簡易裁判所, 松山 not 東松山簡易裁判所.
"""

from __future__ import annotations

import re

from search_core.fulltext.normalize import normalize

# The levels, by their full names; none occurs inside another (高等裁判所 is not in 最高裁判所).
LEVELS = ("最高裁判所", "高等裁判所", "地方裁判所", "家庭裁判所", "簡易裁判所")

# Longest first; the lookaheads keep full names (最高裁判所, ...高等裁判所) and their beginnings (最高裁判) from being
# expanded; 知財 alone is the court people call by it.
_ABBREVIATIONS = (
    (re.compile("知財(?:高裁(?!判)|高等裁判所)|^知財$"), "知的財産高等裁判所"),
    (re.compile("最高裁(?!判)"), "最高裁判所"),
    (re.compile("(?<!最)高裁(?!判)"), "高等裁判所"),
    (re.compile("地裁"), "地方裁判所"),
    (re.compile("家裁"), "家庭裁判所"),
    (re.compile("簡裁"), "簡易裁判所"),
)
_SPACES = re.compile(r"\s+")


def canonical_court(name: str) -> str:
    """Normalised court name without spaces, every common abbreviation expanded.

    >>> [canonical_court(c) for c in ("東京地裁 立川支部", "最高裁判所第二小法廷", "知財", "大阪高裁", "最高裁判")]
    ['東京地方裁判所立川支部', '最高裁判所第2小法廷', '知的財産高等裁判所', '大阪高等裁判所', '最高裁判']
    """
    text = _SPACES.sub("", normalize(name))
    for pattern, full in _ABBREVIATIONS:
        text = pattern.sub(full, text)
    return text


def names_level(court: str) -> bool:
    """Whether a canonical court argument asks for a whole level of courts rather than a court.

    >>> [names_level(canonical_court(c)) for c in ("高裁", "高等裁判所", "東京高裁", "知財高裁", "最高裁")]
    [True, True, False, False, True]
    """
    return court in LEVELS


def names_a_court(word: str) -> bool:
    """Whether a keyword is a court's name, a level or a bench of the Supreme Court rather than words of a text (a
    court is what `court` filters by; as a keyword it is only looked for in the text).

    >>> [names_a_court(w) for w in ("最高裁判所", "大法廷", "東京地裁", "第三小法廷", "裁判所", "法廷", "損害賠償")]
    [True, True, True, True, False, False, False]
    """
    canonical = canonical_court(word)
    return canonical not in ("裁判所", "法廷") and canonical.endswith(("裁判所", "支部", "法廷"))
