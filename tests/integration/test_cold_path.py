"""The cold path of the SQL functions: the Lambda process never imports DuckDB (only its worker does)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from scripts.local_lambda import LAYER, ROOT


@pytest.mark.parametrize("name", ["search_events", "search_stores"])
def test_importing_a_sql_function_does_not_import_duckdb(name: str) -> None:
    probe = (
        f"import sys; sys.path[:0] = [{str(LAYER)!r}, {str(ROOT / 'functions' / name)!r}]; import app; "
        "print('duckdb' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
