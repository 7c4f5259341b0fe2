"""A short passage of the decision around the first keyword hit, cut from the original text.

Hits are found in the normalised text; the passage is cut from the original, so the agent reads the decision
as written (第七百九条 stays 第七百九条 even when the keyword was 第709条).
"""

from __future__ import annotations

import math
import re
import time

from search_core.fulltext.places import aligned
from search_core.fulltext.terms import Term

BEFORE = 40
AFTER = 80
# How far into a decision the first hit is looked for: far beyond most decisions' whole length (median ~10,000
# characters), so a search's 20 hits cost at most ~1 s even if every decision is hostile (a decision of 10 million
# characters takes 2 s to normalise, for each hit). Beyond it the snippet is the opening.
SCAN_CHARS = 300_000
# Read first, then four times as much each time: a hit in the opening pages is found without normalising the rest.
_FIRST_READ = 16_000
# A hit this close to where a read prefix was cut may be read differently once the text goes on (a numeral cut).
_CUT_MARGIN = 64


def snippet(text: str, terms: tuple[Term, ...], deadline: float = math.inf) -> tuple[str, int, bool]:
    """About BEFORE + AFTER characters around the earliest hit of any term, found as the search finds it (a
    citation by its pattern), and where in `text` that hit begins; the opening (and 0) if none, or if `deadline`
    (time.monotonic()) passed before it was found (then the third value is False). Without terms, nothing is read.

    >>> from search_core.fulltext.expression import parse
    >>> snippet("主文 被告は、民法第七百九条に基づき賠償せよ。", parse("民法709条").positive_terms)
    ('主文 被告は、民法第七百九条に基づき賠償せよ。', 7, True)
    >>> snippet("主文 棄却する。", parse("棄却").positive_terms, deadline=0.0)
    ('主文 棄却する。', 0, False)
    """
    if not terms:
        return excerpt(text, 0, 0), 0, True
    try:
        found = _first_hit(text, terms, deadline)
    except TimeoutError:
        return excerpt(text, 0, 0), 0, False
    if found is None:
        return excerpt(text, 0, 0), 0, True
    start, end = found
    return excerpt(text, start, end), start, True


def _first_hit(text: str, terms: tuple[Term, ...], deadline: float) -> tuple[int, int] | None:
    """Where in `text` the earliest hit of any term in its first SCAN_CHARS begins and ends, read in growing
    prefixes, each aligned with its normal form (a position estimated from the lengths drifts where numerals before
    the hit shrink, and may show a passage without the term); None if no term occurs there.
    Raises TimeoutError once `deadline` has passed before a prefix is read."""
    length = _FIRST_READ
    while True:
        if time.monotonic() > deadline:
            raise TimeoutError("the snippet's reading ran past the deadline")
        prefix = text[:length]
        plain, starts = aligned(prefix)
        whole = len(prefix) == len(text) or length >= SCAN_CHARS
        spans = [span for term in terms if (span := next(term.spans(plain), None))]
        settled = [span for span in spans if whole or span[1] <= len(plain) - _CUT_MARGIN]
        if settled or whole:
            if not settled:
                return None
            first, last = min(settled)
            return starts[first], starts[last] if last < len(starts) else len(prefix)
        length = min(length * 4, SCAN_CHARS)


def excerpt(text: str, hit_start: int, hit_end: int, before: int = BEFORE, after: int = AFTER) -> str:
    """`text` from `before` characters ahead of a hit to `after` past it, each cut end marked with …"""
    start, end = max(0, hit_start - before), min(len(text), hit_end + after)
    return ("…" if start > 0 else "") + text[start:end] + ("…" if end < len(text) else "")


# What ends a sentence for a passage: a 。 or a line's end.
_SENTENCE_END = re.compile("[。\n\r]")


def sentence_excerpt(text: str, hit_start: int, hit_end: int, back: int, before: int, after: int, ahead: int) -> str:
    """`text` around a hit, opening and closing with whole sentences where they are near: from the start of the
    hit's sentence if it lies within `back` characters (else `before` characters ahead of the hit), to `after` past
    the hit and on to the end of the sentence there if it lies within `ahead` more; each cut end marked with …

    >>> text = "前の文。被告は、注意義務を尽くしたと主張する。しかし、採用できない。次の文"
    >>> hit = text.index("注意"), text.index("注意") + 4
    >>> sentence_excerpt(text, *hit, back=20, before=3, after=12, ahead=30)
    '…被告は、注意義務を尽くしたと主張する。しかし、採用できない。…'
    >>> sentence_excerpt(text, *hit, back=2, before=3, after=2, ahead=5)
    '…告は、注意義務を尽…'
    """
    low = max(0, hit_start - back)
    opened = max(text.rfind("。", low, hit_start), text.rfind("\n", low, hit_start), text.rfind("\r", low, hit_start))
    start = opened + 1 if opened >= 0 else max(0, hit_start - before)
    shown = min(len(text), hit_end + after)
    ended = _SENTENCE_END.search(text, shown, min(len(text), shown + ahead))
    end = ended.end() if ended else shown
    return ("…" if start > 0 else "") + text[start:end] + ("…" if end < len(text) else "")
