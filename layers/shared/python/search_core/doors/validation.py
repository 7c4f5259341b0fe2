"""Pydantic validation errors, told in Japanese: which field and why."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

_MAX_PART_CHARS = 40
_REASONS = {
    "missing": "必須です",
    "string_type": "文字列である必要があります",
    "int_parsing": "整数である必要があります",
    "int_type": "整数である必要があります",
    "int_from_float": "整数である必要があります",
    "int_parsing_size": "整数として大きすぎます",
    "dict_type": "オブジェクトである必要があります",
    "list_type": "配列である必要があります",
    "model_type": "オブジェクトである必要があります",
    "greater_than_equal": "小さすぎます",
    "less_than_equal": "大きすぎます",
    "string_too_long": "長すぎます",
    "string_too_short": "短すぎます",
    "date_from_datetime_parsing": "YYYY-MM-DD 形式の日付である必要があります",
    "date_parsing": "YYYY-MM-DD 形式の日付である必要があります",
    "date_type": "YYYY-MM-DD 形式の日付である必要があります",
    "json_invalid": "JSON として解釈できません",
}


def describe_errors(errors: Sequence[Any]) -> str:
    """One clause per error: `field: reason`, each part of a field's path cut to 40 characters (some are keys the
    caller chose, of any length).

    >>> describe_errors([{"loc": ("body", "sql_query"), "type": "missing"}])
    'sql_query: 必須です'
    >>> describe_errors([{"loc": ("query", "mode"), "type": "literal_error", "ctx": {"expected": "'each' or 'near'"}}])
    "mode: 'each' or 'near' のどれかにしてください"
    >>> describe_errors([{"loc": ("sessionAttributes", "k" * 99), "type": "string_type"}])
    'sessionAttributes.kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk…: 文字列である必要があります'
    """
    clauses = []
    for error in list(errors)[:5]:
        parts = [_clip(str(part)) for part in error.get("loc", ()) if part not in ("body", "query")]
        clauses.append(f"{'.'.join(parts) or 'リクエスト'}: {_reason(error)}")
    return "、".join(clauses)


def _clip(part: str) -> str:
    return part if len(part) <= _MAX_PART_CHARS else part[:_MAX_PART_CHARS] + "…"


def _reason(error: Any) -> str:
    bounds = error.get("ctx") or {}
    if error.get("type") == "greater_than_equal" and "ge" in bounds:
        return f"{bounds['ge']} 以上である必要があります"
    if error.get("type") == "less_than_equal" and "le" in bounds:
        return f"{bounds['le']} 以下である必要があります"
    if error.get("type") == "string_too_long" and "max_length" in bounds:
        return f"{bounds['max_length']} 文字以内にしてください"
    if error.get("type") == "literal_error" and "expected" in bounds:
        return f"{_clip(str(bounds['expected']))} のどれかにしてください"
    return _REASONS.get(error.get("type", ""), "値が不正です")
