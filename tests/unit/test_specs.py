"""What the agent reads comes from one spec per dataset, and every example in it really runs."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from search_core.advice.profile import build_profile
from search_core.catalogue import SQL_DATASETS
from search_core.datasets.spec import Column, DatasetSpec, shown_type
from search_core.engine.limits import QueryLimits
from tests.conftest import SAMPLE_NOW, open_dataset_sandbox, query_sandbox

SPECS = list(SQL_DATASETS.values())


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_the_sql_description_lists_every_column_with_its_type(spec: DatasetSpec) -> None:
    text = spec.sql_query_description()
    for column in spec.columns:
        assert f"- {column.name} ({shown_type(column)}): {column.description}" in text
        assert all(f'"{value}"' in text for value in column.examples)


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_descriptions_state_the_rules_and_both_table_spellings(spec: DatasetSpec) -> None:
    text = spec.sql_query_description() + spec.operation_description()
    assert f"'{spec.file_name}'" in text and f"テーブル名: {spec.table}" in text
    assert "SELECT 文を 1 つだけ" in text and "最大 10 行" in text
    assert all(macro.signature in text for macro in spec.macros)
    assert all(example.sql in text for example in spec.examples)


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_descriptions_hold_nothing_that_changes_with_the_data(spec: DatasetSpec) -> None:
    text = spec.sql_query_description()
    assert not re.search(r"\d+\s*(件|行あり|rows)", text)


@pytest.mark.parametrize(
    ("spec", "sql"),
    [(s, e.sql) for s in SPECS for e in s.examples] + [(s, m.example) for s in SPECS for m in s.macros],
    ids=lambda v: v if isinstance(v, str) else v.name,
)
def test_every_example_query_and_macro_example_returns_rows_on_the_sample(
    tmp_path: Path, spec: DatasetSpec, sql: str
) -> None:
    con = open_dataset_sandbox(spec.name, tmp_path, now=SAMPLE_NOW)
    assert query_sandbox(con, spec, sql).rows


@pytest.mark.parametrize(("spec", "column"), [(s, c) for s in SPECS for c in s.columns if c.examples])
def test_every_example_value_occurs_in_the_sample(tmp_path: Path, spec: DatasetSpec, column: Column) -> None:
    profile = build_profile(open_dataset_sandbox(spec.name, tmp_path), spec)
    fields = [f for f in profile.fields if f.column == column.name]
    present = {value for field in fields for value, _ in field.values}
    assert all(field.complete for field in fields)  # every value of the sample is in hand
    assert set(column.examples) <= present, set(column.examples) - present


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_every_macro_has_a_worked_example_that_calls_it(spec: DatasetSpec) -> None:
    assert all(f"{macro.name}(" in macro.example for macro in spec.macros)


def test_examples_answer_the_issue_questions(sandbox: Callable[..., Any], test_limits: QueryLimits) -> None:
    stores = SQL_DATASETS["stores"]
    by_question = {e.question: e.sql for e in stores.examples}
    hours = query_sandbox(sandbox("stores"), stores, by_question["麻布台ヒルズマーケットの営業時間"], test_limits)
    assert hours.rows and hours.rows[0][0] == "麻布台ヒルズマーケット"
