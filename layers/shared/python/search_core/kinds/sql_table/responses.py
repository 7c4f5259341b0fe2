"""The answer of a SQL search as the agent receives it."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from search_core.advice.hints import ValueHint
from search_core.doors.envelope import absent_when_none
from search_core.engine.limits import MAX_ROWS


class SqlSearchResponse(BaseModel):
    results: list[dict[str, Any]] = Field(
        description=f"結果の行（列名 → 値）。最大 {MAX_ROWS} 行。JSON の数値で正確に表せない数（2^53 を超える整数、"
        "桁の多い DECIMAL）は文字列"
    )
    count: int = Field(description="返した行数")
    truncated: bool = Field(description="行数の上限や応答サイズのために行や値を切り詰めたら true")
    message: str | None = absent_when_none("切り詰めたときや該当がないときの説明と次の一手")
    hints: list[ValueHint] | None = absent_when_none(
        "0 件のとき: 条件で調べた列に実際にある値。その値で条件を書き直して再試行する"
    )
