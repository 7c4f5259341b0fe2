"""Preparing shows how it goes: prepare tells each stage's growing count, ending at its total; the reporter draws a
bar per stage on a terminal and prints one line per stage otherwise, as make upload-data and the prepare script do."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from tooling import ROOT
from tooling.local import DATA_DIR
from tooling.progress import StageProgress

from search_core.kinds.case_law.store.build import INDEXING, READING, STAGES, WRITING_INDEX, prepare
from search_core.kinds.case_law.store.exports import read_decisions
from tests.conftest import write_export

SAMPLE = DATA_DIR / "cases.db"
SAMPLE_ROWS = sum(1 for _ in read_decisions(SAMPLE))
STAGE_LINE = re.compile(r"(?P<stage>[a-z ]+): (?P<count>[\d,]+) in \d+\.\d s")

Call = tuple[str, int, int | None]


@pytest.fixture
def jsonl(tmp_path: Path) -> Path:
    """450 decisions, so reading takes three batches, in a file that does not say how many it holds."""
    rows = ({"doc_id": f"D{n:04d}", "date": "2024-01-01", "main_text": f"主文{n}"} for n in range(450))
    return write_export(tmp_path / "cases.jsonl", rows)


def told(source: Path, target: Path) -> tuple[list[Call], int]:
    calls: list[Call] = []
    stats = prepare(source, target, progress=lambda stage, done, total: calls.append((stage, done, total)))
    return calls, stats.decisions


def of_stage(calls: list[Call], stage: str) -> list[Call]:
    return [call for call in calls if call[0] == stage]


def test_the_stages_are_told_in_order_each_ending_at_its_total(tmp_path: Path) -> None:
    calls, _ = told(SAMPLE, tmp_path / "cases.duckdb")
    assert list(dict.fromkeys(stage for stage, _, _ in calls)) == list(STAGES)
    for stage in STAGES:
        _, done, total = of_stage(calls, stage)[-1]
        assert done == total


def test_reading_counts_grow_to_the_number_of_decisions(tmp_path: Path, jsonl: Path) -> None:
    calls, decisions = told(jsonl, tmp_path / "cases.duckdb")
    counts = [done for _, done, _ in of_stage(calls, READING)]
    assert counts == [0, 200, 400, 450] and decisions == 450
    assert [done for _, done, _ in of_stage(calls, INDEXING)][-1] == decisions


def test_the_total_is_known_ahead_for_sqlite_and_only_at_the_end_for_jsonl(tmp_path: Path, jsonl: Path) -> None:
    sqlite_calls, _ = told(SAMPLE, tmp_path / "from-sqlite.duckdb")
    jsonl_calls, _ = told(jsonl, tmp_path / "from-jsonl.duckdb")
    assert {total for _, _, total in of_stage(sqlite_calls, READING)} == {SAMPLE_ROWS}
    assert [total for _, _, total in of_stage(jsonl_calls, READING)] == [None, None, None, 450]


def test_without_a_terminal_each_stage_prints_one_line(tmp_path: Path, jsonl: Path) -> None:
    stream = io.StringIO()
    with StageProgress(stream) as progress:
        stats = prepare(jsonl, tmp_path / "cases.duckdb", progress=progress)
    lines = [STAGE_LINE.fullmatch(line) for line in stream.getvalue().splitlines()]
    assert [(m["stage"], m["count"]) if m else None for m in lines] == [
        (stage, f"{stats.grams:,}" if stage == WRITING_INDEX else "450") for stage in STAGES
    ]


def test_on_a_terminal_each_stage_draws_a_bar_that_ends_full(tmp_path: Path, jsonl: Path) -> None:
    stream = io.StringIO()
    with StageProgress(stream, bars=True) as progress:
        prepare(jsonl, tmp_path / "cases.duckdb", progress=progress)
    for stage in STAGES:
        assert re.search(rf"{stage}: 100%\|.*/s\]", stream.getvalue())


def test_a_stage_left_unfinished_prints_no_line() -> None:
    stream = io.StringIO()
    with pytest.raises(RuntimeError), StageProgress(stream) as progress:
        progress(READING, 200, None)
        raise RuntimeError("the source could not be read")
    assert stream.getvalue() == ""


def test_the_prepare_script_prints_a_line_per_stage_in_a_pipeline(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "prepare_cases.py"), str(SAMPLE), str(tmp_path / "cases.duckdb")],
        capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": ""}, timeout=120,
    )  # fmt: skip
    stages = [m["stage"] for line in run.stderr.splitlines() if (m := STAGE_LINE.fullmatch(line))]
    assert stages == list(STAGES)
    assert f"{SAMPLE_ROWS} decisions" in run.stderr and (tmp_path / "cases.duckdb").exists()
