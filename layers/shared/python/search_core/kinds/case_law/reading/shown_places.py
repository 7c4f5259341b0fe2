"""Which places of a hit its passages show: the first (where a judgment states the matter: the claim, the issues),
then, term by term, the term's first place in its best part (the court's own treatment of it: best_parts), then the
last places. A long judgment's hit shows where the court treats each term, not only its two ends."""

from __future__ import annotations

import heapq
import math
import re
from bisect import bisect_left
from itertools import accumulate

from search_core.fulltext.expression import Expression
from search_core.fulltext.places import SHOWN_AFTER, Place, PlacesByPart, places_by_part
from search_core.kinds.case_law.limits import SHOWN_PLACES
from search_core.kinds.case_law.models import Decision
from search_core.kinds.case_law.text.headings import Section, reasoning_in, sections

# A heading of a part that concludes the court's treatment of a matter.
_CONCLUDING = re.compile("小括|結論|まとめ")
# A heading of a party's argument, which a court's reasoning may quote before answering it (ア 原告の主張, 2 検察官の
# 主張, 控訴人らの主張の要旨; not （3）検察官の主張について, the court's answer).
_ARGUED = re.compile(r"主張(?:の要旨|の骨子|の概要)?[）)]?$")


def hit_places(decision: Decision, shown: Expression, deadline: float = math.inf) -> tuple[list[Place], int]:
    """The places of the decision a hit shows for the expression's terms, in order, and how many occurrences it holds.
    Raises TimeoutError past `deadline`."""
    full = decision.full_text
    parts = sections(full, deadline)[0]
    terms = shown.positive_terms
    regions = decision.regions_for(terms, deadline, parts)
    found = places_by_part(decision.searched_text, terms, [part.start for part in parts], regions, deadline, shown.name)
    return chosen(found, parts, reasoning_in(full, parts)), found.total


def chosen(found: PlacesByPart, parts: list[Section], reasoning: tuple[int, int] | None) -> list[Place]:
    """SHOWN_PLACES places at most, in order: the first (where a term stands as a word, if anywhere), each term's
    best part in turn (best_parts), the last.

    >>> parts = [Section(0, 500, 1, ("第1 主張",)), Section(500, 900, 1, ("第2 判断",))]
    >>> firsts = {(0, 0): Place(5, 8, ("過失",), 1), (1, 0): Place(600, 603, ("過失",), 1)}
    >>> found = PlacesByPart(firsts, {0: [3], 1: [1]}, [Place(400, 403, ("過失",), 1), firsts[1, 0]], 4, {0, 1})
    >>> [place.start for place in chosen(found, parts, (500, 900))]
    [5, 400, 600]
    >>> best_parts(found, parts, (500, 900)), best_parts(found, parts, None)
    ([(1, 0), (0, 0)], [(0, 0), (1, 0)])
    """
    if not found.firsts:
        return []
    worded = [place for (part, _), place in found.firsts.items() if part in found.worded]
    shown = [min(worded or found.firsts.values(), key=lambda place: place.start)]
    for part, term in best_parts(found, parts, reasoning):
        _add(shown, found.firsts[part, term])
    for place in reversed(found.last):
        _add(shown, place)
    return sorted(shown, key=lambda place: place.start)


def best_parts(
    found: PlacesByPart, parts: list[Section], reasoning: tuple[int, int] | None, most: int = SHOWN_PLACES
) -> list[tuple[int, int]]:
    """The `most` parts shown first, each with the term whose first place there is shown: each term's best part in
    turn (the terms in the order written), then each term's next. A part is better where the term stands as a word
    (not only inside a longer compound); inside the court's reasoning, and not a party's argument quoted there
    (ア 原告の主張, 2 検察官の主張); within the issue that holds the term most (its enclosing part); a conclusion
    (小括, 結論, まとめ); where the term occurs more; earlier."""
    counted = sorted(found.counts)
    terms = len(next(iter(found.counts.values()), []))
    running = [list(accumulate((found.counts[part][term] for part in counted), initial=0)) for term in range(terms)]
    issues = _issues(parts)

    def held(part: int, term: int) -> int:
        """How often the term occurs in the issue the part belongs to."""
        low, high = issues[part] if part >= 0 else (part, part + 1)
        return running[term][bisect_left(counted, high)] - running[term][bisect_left(counted, low)]

    def key(part: int, term: int) -> tuple[bool, bool, int, bool, int, int]:
        court = part >= 0 and reasoning is not None and reasoning[0] <= parts[part].start < reasoning[1]
        argued = part >= 0 and any(_ARGUED.search(title) for title in parts[part].path)
        concluding = part >= 0 and _CONCLUDING.search(parts[part].path[-1]) is not None
        return (
            part not in found.worded,
            not court or argued,
            -held(part, term),
            not concluding,
            -found.counts[part][term],
            part,
        )

    rankings = [
        iter(
            heapq.nsmallest(
                most,
                (part for part in counted if found.counts[part][term]),
                key=lambda part, term=term: key(part, term),  # type: ignore[misc]
            )
        )
        for term in range(terms)
    ]
    order: list[tuple[int, int]] = []
    for _ in range(most):
        for term, ranking in enumerate(rankings):
            part = next((part for part in ranking if all(part != shown for shown, _ in order)), None)
            if part is not None and len(order) < most:
                order.append((part, term))
    return order


def _issues(parts: list[Section]) -> list[tuple[int, int]]:
    """For each part, the indices of the parts within the one enclosing it (its issue: the part a level up), from
    and to; of the part alone if it has none. One pass: a decision of many headings costs no more than reading them.

    >>> parts = [Section(0, 9, 1, ("第1",)), Section(2, 5, 2, ("第1", "1")), Section(5, 9, 2, ("第1", "2"))]
    >>> _issues(parts)
    [(0, 1), (0, 3), (0, 3)]
    """
    starts = [part.start for part in parts]
    open_parts: list[int] = []
    issues = []
    for index, part in enumerate(parts):
        while open_parts and (
            parts[open_parts[-1]].end <= part.start or len(parts[open_parts[-1]].path) >= len(part.path)
        ):
            open_parts.pop()
        parent = open_parts[-1] if open_parts and len(parts[open_parts[-1]].path) == len(part.path) - 1 else None
        if parent is None:
            issues.append((index, index + 1))
        else:
            issues.append((parent, bisect_left(starts, parts[parent].end, lo=parent + 1)))
        open_parts.append(index)
    return issues


def _add(shown: list[Place], place: Place) -> None:
    """`place` added to `shown` unless it is full or already shows it (a place within SHOWN_AFTER of one shown)."""
    if len(shown) < SHOWN_PLACES and all(abs(place.start - other.start) >= SHOWN_AFTER for other in shown):
        shown.append(place)
