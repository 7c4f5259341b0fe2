"""Court names in one canonical, unabbreviated form, so 東京地裁 and 東京地方裁判所 find each other."""

from __future__ import annotations

import re

from search_core.kinds.case_law.normalize import normalize

# Longest first; the lookarounds keep full names (最高裁判所, ...高等裁判所) from being expanded twice.
_ABBREVIATIONS = (
    (re.compile("知財高裁(?!判所)"), "知的財産高等裁判所"),
    (re.compile("最高裁(?!判所)"), "最高裁判所"),
    (re.compile("(?<!最)高裁(?!判所)"), "高等裁判所"),
    (re.compile("地裁"), "地方裁判所"),
    (re.compile("家裁"), "家庭裁判所"),
    (re.compile("簡裁"), "簡易裁判所"),
)


def canonical_court(name: str) -> str:
    """Normalised court name with every common abbreviation expanded.

    >>> [canonical_court(c) for c in ("東京地裁", "最高裁判所第二小法廷", "知財高裁", "大阪高裁", "最高裁")]
    ['東京地方裁判所', '最高裁判所第2小法廷', '知的財産高等裁判所', '大阪高等裁判所', '最高裁判所']
    """
    text = normalize(name)
    for pattern, full in _ABBREVIATIONS:
        text = pattern.sub(full, text)
    return text
