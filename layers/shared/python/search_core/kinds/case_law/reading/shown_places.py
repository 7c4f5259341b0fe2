"""Which places of a hit its passages show: the first (where a judgment states the matter: the claim, the issues),
then, term by term, the part where each term occurs most, parts of the court's own reasoning first and among them its
conclusions (小括); then the last places. A long judgment's hit shows where the court treats each term, not only
its two ends."""

from __future__ import annotations

import heapq
import math
import re

from search_core.fulltext.expression import Expression
from search_core.fulltext.places import SHOWN_AFTER, Place, PlacesByPart, places_by_part
from search_core.kinds.case_law.limits import SHOWN_PLACES
from search_core.kinds.case_law.models import Decision
from search_core.kinds.case_law.text.headings import Section, reasoning_in, sections

# A heading of a part that concludes the court's treatment of a matter.
_CONCLUDING = re.compile("小括|結論|まとめ")


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
    """SHOWN_PLACES places at most, in order: the first, each term's best part in turn (best_parts), the last.

    >>> parts = [Section(0, 500, 1, ("第1 主張",)), Section(500, 900, 1, ("第2 判断",))]
    >>> found = PlacesByPart({0: Place(5, 8, ("過失",), 1), 1: Place(600, 603, ("過失",), 1)}, {0: [3], 1: [1]},
    ...                      [Place(400, 403, ("過失",), 1), Place(600, 603, ("過失",), 1)], 4)
    >>> [place.start for place in chosen(found, parts, (500, 900))]
    [5, 400, 600]
    >>> best_parts(found, parts, (500, 900)), best_parts(found, parts, None)
    ([1, 0], [0, 1])
    """
    if not found.firsts:
        return []
    shown = [min(found.firsts.values(), key=lambda place: place.start)]
    for part in best_parts(found, parts, reasoning):
        _add(shown, found.firsts[part])
    for place in reversed(found.last):
        _add(shown, place)
    return sorted(shown, key=lambda place: place.start)


def best_parts(
    found: PlacesByPart, parts: list[Section], reasoning: tuple[int, int] | None, most: int = SHOWN_PLACES
) -> list[int]:
    """The `most` parts shown first: each term's best part in turn (the terms in the order written), then each
    term's next; a part is better inside the court's reasoning, then when it is a conclusion (小括, 結論, まとめ), then
    where the term occurs more, then earlier."""

    def judged(part: int) -> bool:
        return part >= 0 and reasoning is not None and reasoning[0] <= parts[part].start < reasoning[1]

    def concluding(part: int) -> bool:
        return part >= 0 and _CONCLUDING.search(parts[part].path[-1]) is not None

    terms = len(next(iter(found.counts.values()), []))
    rankings = [
        iter(
            heapq.nsmallest(
                most,
                (part for part, counts in found.counts.items() if counts[term]),
                key=lambda part, term=term: (  # type: ignore[misc]
                    not judged(part),
                    not concluding(part),
                    -found.counts[part][term],
                    part,
                ),
            )
        )
        for term in range(terms)
    ]
    order: list[int] = []
    for _ in range(most):
        for ranking in rankings:
            part = next((part for part in ranking if part not in order), None)
            if part is not None and len(order) < most:
                order.append(part)
    return order


def _add(shown: list[Place], place: Place) -> None:
    """`place` added to `shown` unless it is full or already shows it (a place within SHOWN_AFTER of one shown)."""
    if len(shown) < SHOWN_PLACES and all(abs(place.start - other.start) >= SHOWN_AFTER for other in shown):
        shown.append(place)
