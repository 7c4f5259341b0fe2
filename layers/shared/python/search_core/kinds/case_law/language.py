"""The search expression as case law reads it: the full-text language (search_core/fulltext/expression.py) with the
parts of a decision a term may be confined to by writing their name and a colon (主文:300万円, 事件名:損害賠償).

>>> [term.text for term in parse("主文:棄却 事件名:損害賠償 理由:損害").terms]
['主文:棄却', '事件名:損害賠償', '理由:損害']
"""

from __future__ import annotations

from search_core.fulltext import expression
from search_core.fulltext.expression import Expression

FIELDS = ("主文", "事件名")


def parse(keywords: str) -> Expression:
    return expression.parse(keywords, FIELDS)
