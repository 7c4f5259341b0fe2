"""Why a query found nothing, in data terms: for each field its conditions test, the values that are there and how
many rows pass the condition alone.

Values nearest the literal come first (so `子ども` brings `子供`), then the most frequent (so `ファミリー` brings
`家族`, the word this data uses); a typed field shows its range instead. Whether a condition matches anything is
never worked out here: DuckDB counts the rows that pass the agent's own condition (`rows_passing`, worker/insight.py),
so `matched` holds whatever DuckDB's comparisons do (a DATE against a TIMESTAMP, `'True' = true`, a JSON array's
text against `LIKE '家族%'`).

>>> from search_core.advice.profile import FieldProfile, TableProfile
>>> tags = FieldProfile("tags", None, 4, 3, [("家族", 2), ("子供", 1), ("一般", 1)], complete=True)
>>> profile = TableProfile(4, 4, (tags,))
>>> hint = value_hints([Condition("tags", None, "LIKE", ("%子ども%",))], profile, set(), lambda c: 0)[0]
>>> hint.values[:2], hint.matched, hint.matching_rows
(['子供', '家族'], False, 0)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from difflib import SequenceMatcher
from typing import Any

from search_core.advice.filters import Condition
from search_core.advice.profile import FieldProfile, TableProfile

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
# How many rows pass one condition alone, counted by DuckDB; None when that could not be asked in time.
RowsPassing = Callable[[Condition], int | None]


def _is_none(value: Any) -> bool:
    return value is None


def _described(description: str) -> Any:
    """A field the agent reads, with its description in the answer's schema. (A function, not `field` itself: the
    hint has a field called `field`.)"""
    return field(metadata={"description": description})


def _absent_when_none(description: str | None = None) -> Any:
    """A field left out of the answer when it has no value: the agent pays for every byte it reads. Pydantic reads
    the description and `exclude_if` from the metadata when the answer is built."""
    return field(default=None, metadata={"description": description, "exclude_if": _is_none})


# What one tested field holds: the one type of a hint, from the worker that finds it, across the process boundary,
# to the answer the agent reads, whose schema pydantic makes from the fields' descriptions. (No docstring: it would
# become the schema's description, in every payload.)
@dataclass(frozen=True)
class ValueHint:
    field: str = _described("条件で調べた列（JSON のキーは 列->>'キー'）")
    condition: str = _described("クエリの条件（送った SQL のまま）")
    values: list[str] = _described(  # noqa: RUF009 (a field())
        "その列に実際にある値。条件の値に近いものが先、次に多いもの（同じ field のヒントが前にあれば空。値はそちらに）"
    )
    distinct: int = _described("その列の値の種類数（概数）")
    matched: bool | None = _absent_when_none(
        "この条件だけで合う行があれば true、なければ false（0 件の原因）。データで数えた結果。数えられなければ省略"
    )
    matching_rows: int | None = _absent_when_none("この条件だけを満たす行数")
    note: str | None = _absent_when_none()
    minimum: str | None = _absent_when_none("日付・数値の列: データの最小値")
    maximum: str | None = _absent_when_none("日付・数値の列: データの最大値")
    missing: int | None = _absent_when_none("日付・数値の列: 値のない行の数")

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ValueHint:
        return cls(**data)


@dataclass(frozen=True)
class ClockRange:
    """The range of a column an empty answer compared with the clock."""

    field: str
    minimum: str
    maximum: str
    missing: int | None = None


@dataclass(frozen=True)
class ClockNote:
    """An empty answer whose conditions read the clock: the columns compared with it, and how many rows pass the
    clock's conditions alone (None: not known in time)."""

    ranges: list[ClockRange]
    rows_now: int | None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ClockNote:
        return cls([ClockRange(**r) for r in data["ranges"]], data["rows_now"])


@dataclass(frozen=True)
class TermCount:
    """A term of the query's own WHERE that got no hint, as the agent wrote it, and the rows passing it alone (None:
    not known in time)."""

    text: str
    rows: int | None


@dataclass(frozen=True)
class EmptyAnswer:
    """What the worker learnt of an answer without rows: the hints, the clock's part in it, and the rest of the
    query's own WHERE counted term by term."""

    hints: list[ValueHint] = field(default_factory=list)
    clock: ClockNote | None = None
    # Rows passing the query's own WHERE when it reads the table directly (advice/filters.py, Filters.where_sql).
    where_rows: int | None = None
    # The WHERE's terms without a hint; empty when its terms are not known (then no claim covers them all).
    unhinted: list[TermCount] = field(default_factory=list)
    # Whether every term of the WHERE is either hinted or counted in `unhinted`.
    terms_known: bool = False
    # Hinted conditions that are parts of a larger term (one side of an OR): matching nothing, they empty nothing.
    parts: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        clock = self.clock.to_dict() if self.clock else None
        return {
            "hints": [hint.to_dict() for hint in self.hints],
            "clock": clock,
            "where_rows": self.where_rows,
            "unhinted": [asdict(term) for term in self.unhinted],
            "terms_known": self.terms_known,
            "parts": self.parts,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EmptyAnswer:
        """
        >>> hint = ValueHint("a", "a = 1", ["2"], 1, matched=False)
        >>> answer = EmptyAnswer([hint], ClockNote([], 3), 0, [TermCount("b > 2", 0)], terms_known=True)
        >>> EmptyAnswer.from_dict(answer.to_dict()) == answer
        True
        """
        clock = ClockNote.from_dict(data["clock"]) if data.get("clock") else None
        hints = [ValueHint.from_dict(hint) for hint in data["hints"]]
        unhinted = [TermCount(**term) for term in data.get("unhinted", [])]
        return cls(
            hints, clock, data.get("where_rows"), unhinted, bool(data.get("terms_known")), list(data.get("parts", []))
        )


def value_hints(
    conditions: list[Condition], profile: TableProfile, json_columns: set[str], rows_passing: RowsPassing
) -> list[ValueHint]:
    """One hint per tested field the profile knows, the whole list within HINTS_BUDGET_CHARS. A JSON column's
    values are its elements (arrays) or its keys' values (objects)."""
    hints: list[ValueHint] = []
    for condition in conditions:
        hint = _hint(condition, profile, condition.column in json_columns, rows_passing)
        if hint is not None and any(h.field == hint.field for h in hints):  # its values are listed once already
            hint = replace(hint, values=[])
        if hint is not None:
            hints.append(hint)
        if len(hints) == MAX_HINTS:
            break
    return _within_budget(hints)


def rows_without(field: FieldProfile, profile: TableProfile) -> int | None:
    """How many rows hold no value in `field`, when the profile counted every row and some do not."""
    if profile.sampled_rows != profile.rows or field.present >= profile.rows:
        return None
    return profile.rows - field.present


def _hint(
    condition: Condition, profile: TableProfile, json_column: bool, rows_passing: RowsPassing
) -> ValueHint | None:
    fields = _fields_tested(condition, profile)
    if not fields:
        return None
    name = fields[0].name if len(fields) == 1 else condition.column
    shown = condition.text or _condition_sql(name, condition)
    distinct = sum(f.distinct for f in fields)
    rows = rows_passing(condition)
    matched = None if rows is None else rows > 0
    low, high = fields[0].minimum, fields[0].maximum
    if low is not None and high is not None:  # a date or a number: its range says more than its values
        missing = rows_without(fields[0], profile)
        return ValueHint(name, shown, [], distinct, matched, rows, minimum=low, maximum=high, missing=missing)
    counted = [v for v, _ in sorted(((v, n) for f in fields for v, n in f.values), key=lambda item: -item[1])]
    values = _nearest_then_frequent(counted, condition)
    note = _json_equality_note(condition) if json_column and condition.key is None else None
    return ValueHint(name, shown, values, distinct, matched, rows, note)


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


def _json_equality_note(condition: Condition) -> str | None:
    """For `=` or IN on a whole JSON column with plain text: how to test an element or a key instead."""
    json_literal = any(literal.lstrip()[:1] in ("[", "{") for literal in condition.literals)
    if condition.operator not in ("=", "IN") or json_literal:
        return None
    column = condition.column
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
