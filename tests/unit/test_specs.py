"""What the agent reads comes from one spec per dataset, and every example in it really runs."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from search_core.catalogue import SQL_DATASETS
from search_core.datasets.spec import DatasetSpec, shown_type
from search_core.sql.limits import QueryLimits
from tests.conftest import query_sandbox

SPECS = list(SQL_DATASETS.values())


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_the_sql_description_lists_every_column_with_its_type(spec: DatasetSpec) -> None:
    text = spec.sql_query_description()
    for column in spec.columns:
        assert f"- {column.name} ({shown_type(column)}): {column.description}" in text


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
    ("spec", "example"), [(s, e) for s in SPECS for e in s.examples], ids=lambda v: getattr(v, "question", "")
)
def test_every_example_runs_on_the_sample_data(
    sandbox: Callable[..., Any], test_limits: QueryLimits, spec: DatasetSpec, example: Any
) -> None:
    result = query_sandbox(sandbox(spec.name), spec, example.sql, test_limits)
    assert result.columns


def test_examples_answer_the_issue_questions(sandbox: Callable[..., Any], test_limits: QueryLimits) -> None:
    stores = SQL_DATASETS["stores"]
    by_question = {e.question: e.sql for e in stores.examples}
    hours = query_sandbox(sandbox("stores"), stores, by_question["麻布台ヒルズマーケットの営業時間"], test_limits)
    assert hours.rows and hours.rows[0][0] == "麻布台ヒルズマーケット"
