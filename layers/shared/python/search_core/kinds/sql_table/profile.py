"""The agent's look at a dataset before it asks: each column's type and description with a profile of the live data
(advice/profile.py), fitted to the response budget.

Most columns get their most frequent values; free text (nearly every value different) gets two samples instead,
since its frequencies say nothing; a JSON object column is shown key by key, as a query reaches into it.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from search_core.advice.profile import FieldProfile, TableProfile
from search_core.datasets.spec import DatasetSpec, shown_type
from search_core.doors.envelope import absent_when_none
from search_core.engine.budget import TRUNCATION_MARKER, embedded_bytes
from search_core.engine.table import Column

# Values listed per field, from the most generous that fits the budget down to the least.
_VALUE_COUNTS = (50, 20, 10, 5, 3, 1)
_DEFAULT_VALUE_COUNT = 10
_SAMPLE_CHARS = 60
_SAMPLES = 2


class ValueCount(BaseModel):
    value: str
    count: int


class FieldSummary(BaseModel):
    field: str = Field(description="SQL での書き方（JSON のキーは 列->>'キー'）")
    distinct: int = Field(description="値の種類数（概数）")
    top_values: list[ValueCount] | None = absent_when_none(
        "多い順の値と件数（JSON 配列は要素ごと、JSON オブジェクトはキー名）"
    )
    others: int | None = absent_when_none("top_values に載せなかった値の種類数（column で 1 列だけ見るとより多く載る）")
    samples: list[str] | None = absent_when_none("自由記述の列: 値の例")
    minimum: str | None = absent_when_none("日付・数値の列: 最小値")
    maximum: str | None = absent_when_none("日付・数値の列: 最大値")


class ColumnProfile(BaseModel):
    name: str
    type: str
    description: str
    null_share: float = Field(description="NULL の割合（0〜1）")
    summary: FieldSummary
    keys: list[FieldSummary] | None = absent_when_none("JSON オブジェクトの列: キーごとの値")


class DatasetProfile(BaseModel):
    table: str
    rows: int = Field(description="全行数")
    sampled_rows: int = Field(description="値の件数を数えた行数（大きなデータは標本）")
    columns: list[ColumnProfile]
    truncated: bool = Field(description="応答サイズのために値の一覧を短くしたら true")


def shape_profile(spec: DatasetSpec, profile: TableProfile, column: str | None, budget: int) -> DatasetProfile:
    """The profile of `spec`'s columns (or of `column` alone), listing as many values per field as fit `budget`."""
    columns = [c for c in spec.columns if column is None or c.name == column]
    counts = _VALUE_COUNTS if column is not None else _VALUE_COUNTS[_VALUE_COUNTS.index(_DEFAULT_VALUE_COUNT) :]
    for count in counts:
        shaped = _shaped(spec, profile, columns, count, truncated=count != counts[0])
        if embedded_bytes(shaped.model_dump()) <= budget:
            break
    return shaped


def _shaped(
    spec: DatasetSpec, profile: TableProfile, columns: list[Column], count: int, truncated: bool
) -> DatasetProfile:
    return DatasetProfile(
        table=spec.table,
        rows=profile.rows,
        sampled_rows=profile.sampled_rows,
        columns=[_column(c, profile, count) for c in columns if profile.field(c.name) is not None],
        truncated=truncated,
    )


def _column(column: Column, profile: TableProfile, count: int) -> ColumnProfile:
    own = profile.field(column.name)
    assert own is not None
    keys = profile.keys_of(column.name)
    return ColumnProfile(
        name=column.name,
        type=shown_type(column),
        description=column.description,
        null_share=round(1 - own.present / profile.rows, 3) if profile.rows else 0.0,
        summary=_summary(own, count),
        keys=[_summary(key, count) for key in keys] or None,
    )


def _summary(field: FieldProfile, count: int) -> FieldSummary:
    if field.minimum is not None:
        return FieldSummary(field=field.name, distinct=field.distinct, minimum=field.minimum, maximum=field.maximum)
    if _free_text(field):
        samples = [_clipped(value) for value, _ in field.values[:_SAMPLES]]
        return FieldSummary(field=field.name, distinct=field.distinct, samples=samples)
    top = [ValueCount(value=_clipped(value), count=n) for value, n in field.values[:count]]
    others = max(field.distinct, len(field.values)) - len(top)
    return FieldSummary(field=field.name, distinct=field.distinct, top_values=top, others=others or None)


def _free_text(field: FieldProfile) -> bool:
    """Nearly every value seen once (names, descriptions): frequencies would only list arbitrary ones."""
    seen_once = sum(1 for _, n in field.values if n == 1)
    return field.distinct > 20 and seen_once > 0.8 * len(field.values)


def _clipped(value: str) -> str:
    return value if len(value) <= _SAMPLE_CHARS else value[:_SAMPLE_CHARS] + TRUNCATION_MARKER
