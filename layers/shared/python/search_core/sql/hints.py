"""Why a query found nothing, in data terms: for each field its conditions test, the values that are there.

Values nearest the literal come first (so `子ども` brings `子供`), then the most frequent (so `ファミリー` brings
`家族`, the word this data uses); a typed field shows its range instead. Each hint says whether any value of the
field could pass the condition, when the profile holds every value and the test can be replayed here.

>>> from search_core.sql.profile import FieldProfile, TableProfile
>>> tags = FieldProfile("tags", None, 4, 3, [("家族", 2), ("子供", 1), ("一般", 1)], complete=True)
>>> profile = TableProfile(4, 4, (tags,))
>>> hint = value_hints([Condition("tags", None, "LIKE", ("%子ども%",))], profile, json_columns=set())[0]
>>> hint.values[:2], hint.matched
(['子供', '家族'], False)
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from difflib import SequenceMatcher
from typing import Any

from search_core.sql.filters import Condition
from search_core.sql.profile import FieldProfile, TableProfile

MAX_HINTS = 5
VALUES_PER_HINT = 30
# The nearest values listed before the most frequent ones, and how alike a value must be to count as near.
_NEAREST = 8
_NEAR_ENOUGH = 0.34
# What all hints of one answer may take in JSON: well under the response budget, whatever the data holds.
HINTS_BUDGET_CHARS = 1_500


@dataclass(frozen=True)
class ValueHint:
    field: str
    condition: str
    values: list[str]
    distinct: int
    matched: bool | None = None
    note: str | None = None
    minimum: str | None = None
    maximum: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}


def value_hints(conditions: list[Condition], profile: TableProfile, json_columns: set[str]) -> list[ValueHint]:
    """One hint per tested field the profile knows, the whole list within HINTS_BUDGET_CHARS. A JSON column's
    values are its elements (arrays) or its keys' values (objects)."""
    hints = [h for c in conditions if (h := _hint(c, profile, c.column in json_columns)) is not None][:MAX_HINTS]
    return _within_budget(hints)


def _hint(condition: Condition, profile: TableProfile, json_column: bool) -> ValueHint | None:
    fields = _fields_tested(condition, profile)
    if not fields:
        return None
    name = fields[0].name if len(fields) == 1 else condition.column
    shown = f"{name} {condition.operator} {', '.join(_sql_text(literal) for literal in condition.literals)}"
    distinct = sum(f.distinct for f in fields)
    if fields[0].minimum is not None:  # a date or a number: its range says more than its values
        return ValueHint(name, shown, [], distinct, minimum=fields[0].minimum, maximum=fields[0].maximum)
    counted = [v for v, _ in sorted(((v, n) for f in fields for v, n in f.values), key=lambda item: -item[1])]
    values = _nearest_then_frequent(counted, condition)
    if json_column and condition.key is None and condition.operator in ("=", "IN"):
        # The column holds JSON text such as '["家族", "子供"]', which never equals one of its elements.
        return ValueHint(name, shown, values, distinct, False, _json_equality_note(condition.column))
    matched = _any_passes(condition, counted) if all(f.complete for f in fields) else None
    return ValueHint(name, shown, values, distinct, matched)


def _sql_text(literal: str) -> str:
    return "'" + literal.replace("'", "''") + "'"


def _json_equality_note(column: str) -> str:
    return (
        f"{column} は JSON 文字列なので = では要素に一致しません。"
        f"{column} LIKE '%値%'（配列の要素）か {column}->>'キー' = '値'（オブジェクト）で比べてください。"
    )


def _fields_tested(condition: Condition, profile: TableProfile) -> list[FieldProfile]:
    """The profiled fields behind a condition: a key's own field; for a whole JSON object, all of its keys'."""
    own = profile.field(condition.column, condition.key)
    keys = profile.keys_of(condition.column) if condition.key is None else []
    if keys:
        return keys
    return [own] if own is not None else []


def _nearest_then_frequent(values: list[str], condition: Condition) -> list[str]:
    terms = [_term(literal) for literal in condition.literals]
    scored = sorted(
        ((max(_likeness(t, v) for t in terms), i, v) for i, v in enumerate(dict.fromkeys(values))),
        key=lambda s: (-s[0], s[1]),
    )
    nearest = [v for score, _, v in scored[:_NEAREST] if score >= _NEAR_ENOUGH]
    rest = [v for v in dict.fromkeys(values) if v not in nearest]
    return (nearest + rest)[:VALUES_PER_HINT]


def _term(literal: str) -> str:
    """What a pattern searches for: its text without LIKE wildcards or regex anchors."""
    return re.sub(r"[%_^$.*+?()\[\]\\|]+", " ", literal).strip().casefold()


def _likeness(term: str, value: str) -> float:
    value = value.casefold()
    if term and (term in value or value in term):
        return 1.0
    return SequenceMatcher(None, term, value, autojunk=False).ratio()


def _any_passes(condition: Condition, values: list[str]) -> bool | None:
    """Whether any value passes the condition, replayed on the profile's values; None where it cannot be."""
    test = _replay(condition)
    return None if test is None else any(test(value) for value in values)


def _replay(condition: Condition) -> Any:
    literals = condition.literals
    if condition.operator in ("LIKE", "ILIKE"):
        flags = re.IGNORECASE if condition.operator == "ILIKE" else 0
        patterns = [re.compile(_like_regex(literal), flags | re.DOTALL) for literal in literals]
        return lambda value: any(p.fullmatch(value) for p in patterns)
    if condition.operator in ("=", "IN"):
        return lambda value: value in literals
    if condition.operator == "contains":
        return lambda value: any(literal in value for literal in literals)
    if condition.operator == "starts_with":
        return lambda value: any(value.startswith(literal) for literal in literals)
    if condition.operator == "ends_with":
        return lambda value: any(value.endswith(literal) for literal in literals)
    return None


def _like_regex(pattern: str) -> str:
    """
    >>> _like_regex("%駐車_場%")
    '.*駐車.場.*'
    """
    return "".join(".*" if c == "%" else "." if c == "_" else re.escape(c) for c in pattern)


def _within_budget(hints: list[ValueHint]) -> list[ValueHint]:
    """Drop the last values of the longest hints until the whole list fits HINTS_BUDGET_CHARS."""
    hints = [ValueHint(**{**asdict(h), "values": list(h.values)}) for h in hints]
    while sum(_size(h) for h in hints) > HINTS_BUDGET_CHARS:
        longest = max(hints, key=_size)
        if len(longest.values) <= 1:
            hints.remove(longest)
            continue
        longest.values.pop()
    return hints


def _size(hint: ValueHint) -> int:
    return len(repr(hint.to_dict()))
