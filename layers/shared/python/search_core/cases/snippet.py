"""A short passage of the decision around the first keyword hit, cut from the original text.

Hits are found in the normalised text; the passage is cut from the original, so the agent reads the decision
as written (第七百九条 stays 第七百九条 even when the keyword was 第709条).
"""

from __future__ import annotations

import re

from search_core.cases.citations import Citation
from search_core.cases.normalize import normalize
from search_core.cases.passages import aligned
from search_core.cases.query import Term, term_text

BEFORE = 40
AFTER = 80
_WINDOW = 400


def snippet(text: str, terms: tuple[Term, ...]) -> str:
    """About BEFORE + AFTER characters around the earliest hit of any term, found as the search finds it (a
    citation by its pattern); the opening if none.

    >>> from search_core.cases.query import parse
    >>> snippet("主文 被告は、民法第七百九条に基づき賠償せよ。", parse("民法709条").positive_terms)
    '主文 被告は、民法第七百九条に基づき賠償せよ。'
    """
    plain = normalize(text)
    hits = [(match.start(), match.end() - match.start(), pattern) for pattern in map(_pattern, terms)
            if (match := pattern.search(plain))]  # fmt: skip
    if not hits:
        return _cut(text, 0, 0)
    position, length, pattern = min(hits, key=lambda hit: hit[:2])
    estimate = round(position * len(text) / max(len(plain), 1))
    start = max(0, estimate - _WINDOW)
    located = _locate(text[start : estimate + _WINDOW + 4 * length], pattern)
    if located is None:
        return _cut(text, estimate, estimate)
    return _cut(text, start + located[0], start + located[1])


def _pattern(term: Term) -> re.Pattern[str]:
    return term.regex if isinstance(term, Citation) else re.compile(re.escape(term_text(term)))


def _locate(window: str, pattern: re.Pattern[str]) -> tuple[int, int] | None:
    """Original start and end of the pattern's first match in `window`'s normal form."""
    plain, starts = aligned(window)
    match = pattern.search(plain)
    if match is None:
        return None
    end = match.end()
    return starts[match.start()], starts[end] if end < len(starts) else len(window)


def _cut(text: str, hit_start: int, hit_end: int) -> str:
    start, end = max(0, hit_start - BEFORE), min(len(text), hit_end + AFTER)
    return ("…" if start > 0 else "") + text[start:end] + ("…" if end < len(text) else "")
