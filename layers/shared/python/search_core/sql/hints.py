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
from collections.abc import Callable
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
# What of a condition is shown and compared: a long IN list or literal says no more in its first few.
_SHOWN_LITERALS = 5
_SHOWN_CHARS = 100
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")
# Longer LIKE patterns are not replayed on the profile's values (matched stays unknown).
_REPLAYED_PATTERN_CHARS = 200


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
    shown = _condition_sql(name, condition)
    distinct = sum(f.distinct for f in fields)
    low, high = fields[0].minimum, fields[0].maximum
    if low is not None and high is not None:  # a date or a number: its range says more than its values
        return ValueHint(name, shown, [], distinct, _in_range(condition, low, high), minimum=low, maximum=high)
    counted = [v for v, _ in sorted(((v, n) for f in fields for v, n in f.values), key=lambda item: -item[1])]
    values = _nearest_then_frequent(counted, condition)
    if json_column and condition.key is None:
        return _whole_json_hint(name, shown, values, distinct, condition, fields)
    matched = _any_passes(condition, counted) if all(f.complete for f in fields) else None
    return ValueHint(name, shown, values, distinct, matched)


def _in_range(condition: Condition, low: str, high: str) -> bool | None:
    """Whether some value between `low` and `high` passes a comparison: known for >, >=, <, <= (the extremes
    decide), and false for =, IN or BETWEEN wholly outside the range.

    >>> _in_range(Condition("d", None, ">", ("2030-01-01",)), "2025-01-01", "2026-01-04")
    False
    >>> at_most_10, is_50 = Condition("n", None, "<=", ("10",)), Condition("n", None, "=", ("50",))
    >>> _in_range(at_most_10, "9", "100"), _in_range(is_50, "9", "100")
    (True, None)
    """
    keys = _comparable([low, high, *condition.literals])
    if keys is None:
        return None
    first, last, *given = keys
    operator = condition.operator
    if operator == ">":
        return bool(last > given[0])
    if operator == ">=":
        return bool(last >= given[0])
    if operator == "<":
        return bool(first < given[0])
    if operator == "<=":
        return bool(first <= given[0])
    if operator == "BETWEEN":
        return None if given[0] <= last and given[-1] >= first else False
    if operator in ("=", "IN"):
        return None if any(first <= g <= last for g in given) else False
    return None


def _comparable(texts: list[str]) -> list[Any] | None:
    """All as numbers, or all as ISO dates or times (whose text sorts as they do), or None.

    >>> _comparable(["9", "10"]), _comparable(["2025-01-01", "2025-1-2"])
    ([9.0, 10.0], None)
    """
    try:
        return [float(text) for text in texts]
    except ValueError:
        return list(texts) if all(_ISO_DATE.match(text) for text in texts) else None


def _whole_json_hint(
    name: str, shown: str, values: list[str], distinct: int, condition: Condition, fields: list[FieldProfile]
) -> ValueHint:
    """A condition on a JSON column's text, while its values are elements or keys' values: replayed only where the
    two agree (plain text sought in an array of strings); `=` against an element never holds."""
    json_literal = any(literal.lstrip()[:1] in ("[", "{") for literal in condition.literals)
    if condition.operator in ("=", "IN") and not json_literal:
        return ValueHint(name, shown, values, distinct, False, _json_equality_note(condition.column))
    is_array = len(fields) == 1 and fields[0].key is None
    plain = not any(mark in literal for literal in condition.literals for mark in '"[]{}:,\\')
    if is_array and plain and condition.operator != "=" and all(f.complete for f in fields):
        return ValueHint(name, shown, values, distinct, _any_passes(condition, [v for v, _ in fields[0].values]))
    return ValueHint(name, shown, values, distinct)


def _condition_sql(field: str, condition: Condition) -> str:
    """The condition as SQL the agent can reuse (an IN list with its first few literals; a long hint is dropped
    whole by the budget).

    >>> _condition_sql("category", Condition("category", None, "IN", ("a", "b")))
    "category IN ('a', 'b')"
    """
    literals = [_sql_text(literal) for literal in condition.literals[:_SHOWN_LITERALS]]
    if condition.operator == "IN":
        return f"{field} IN ({', '.join(literals)})"
    if condition.operator == "BETWEEN" and len(literals) == 2:
        return f"{field} BETWEEN {literals[0]} AND {literals[1]}"
    if condition.operator in ("contains", "starts_with", "ends_with", "regexp"):
        function = "regexp_matches" if condition.operator == "regexp" else condition.operator
        return f"{function}({field}, {literals[0]})"
    return f"{field} {condition.operator} {literals[0]}"


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
    terms = [_term(literal)[:_SHOWN_CHARS] for literal in condition.literals[:_SHOWN_LITERALS]]
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


def _replay(condition: Condition) -> Callable[[str], bool] | None:
    literals = condition.literals
    if condition.operator in ("LIKE", "ILIKE"):
        if any(len(literal) > _REPLAYED_PATTERN_CHARS for literal in literals):
            return None
        fold = condition.operator == "ILIKE"
        patterns = [literal.casefold() if fold else literal for literal in literals]
        return lambda value: any(like(value.casefold() if fold else value, p) for p in patterns)
    if condition.operator in ("=", "IN"):
        return lambda value: value in literals
    if condition.operator == "contains":
        return lambda value: any(literal in value for literal in literals)
    if condition.operator == "starts_with":
        return lambda value: any(value.startswith(literal) for literal in literals)
    if condition.operator == "ends_with":
        return lambda value: any(value.endswith(literal) for literal in literals)
    return None


def like(value: str, pattern: str) -> bool:
    """Whether `value` matches the LIKE `pattern` (`%` any run, `_` any one character), in time linear in the
    pieces between the `%` signs: each piece is found at its first place, which is enough for `%` wildcards.

    >>> like("麻布台ヒルズ 駐車場あり", "%駐車_あ%"), like("abc", "a%%%%%%%%%%c"), like("abc", "%_%_%_%_%Z")
    (True, True, False)
    """
    pieces = pattern.split("%")
    if len(pieces) == 1:
        return len(value) == len(pattern) and _piece_at(value, 0, pattern)
    first, *middle, last = pieces
    if len(value) < len(first) + len(last) or not _piece_at(value, 0, first):
        return False
    end = len(value) - len(last)
    if not _piece_at(value, end, last):
        return False
    position = len(first)
    for piece in middle:
        found = _find_piece(value, piece, position, end)
        if found < 0:
            return False
        position = found + len(piece)
    return True


def _piece_at(value: str, start: int, piece: str) -> bool:
    return all(p == "_" or value[start + i] == p for i, p in enumerate(piece))


def _find_piece(value: str, piece: str, start: int, end: int) -> int:
    """The first place from `start` where `piece` (with `_` for any character) fits before `end`, or -1."""
    for position in range(start, end - len(piece) + 1):
        if _piece_at(value, position, piece):
            return position
    return -1


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
