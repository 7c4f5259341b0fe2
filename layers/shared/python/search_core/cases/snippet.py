"""A short passage of the decision around the first keyword hit, cut from the original text.

Hits are found in the normalised text; the passage is cut from the original, so the agent reads the decision
as written (第七百九条 stays 第七百九条 even when the keyword was 第709条).
"""

from __future__ import annotations

from search_core.cases.normalize import normalize
from search_core.cases.passages import aligned

BEFORE = 40
AFTER = 80
_WINDOW = 400


def snippet(text: str, keywords: tuple[str, ...]) -> str:
    """About BEFORE + AFTER characters around the earliest hit of any keyword; the opening if none.

    >>> snippet("主文 被告は、民法第七百九条に基づき賠償せよ。", ("第709条",))
    '主文 被告は、民法第七百九条に基づき賠償せよ。'
    """
    plain = normalize(text)
    hits = [(position, keyword) for keyword in keywords if (position := plain.find(keyword)) >= 0]
    if not hits:
        return _cut(text, 0, 0)
    position, keyword = min(hits)
    estimate = round(position * len(text) / max(len(plain), 1))
    start = max(0, estimate - _WINDOW)
    located = _locate(text[start : estimate + _WINDOW + 4 * len(keyword)], keyword)
    if located is None:
        return _cut(text, estimate, estimate)
    return _cut(text, start + located[0], start + located[1])


def _locate(window: str, keyword: str) -> tuple[int, int] | None:
    """Original start and end of `keyword`'s first normalised occurrence in `window`."""
    plain, starts = aligned(window)
    found = plain.find(keyword)
    if found < 0:
        return None
    end = found + len(keyword)
    return starts[found], starts[end] if end < len(starts) else len(window)


def _cut(text: str, hit_start: int, hit_end: int) -> str:
    start, end = max(0, hit_start - BEFORE), min(len(text), hit_end + AFTER)
    return ("…" if start > 0 else "") + text[start:end] + ("…" if end < len(text) else "")
