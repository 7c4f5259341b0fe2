"""The cold path: the Lambda process of the SQL functions never imports DuckDB (only its worker does), and no
function imports the X-Ray SDK unless it will trace."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from scripts.local_lambda import LAYER, ROOT


@pytest.mark.parametrize("name", ["search_events", "search_stores"])
def test_importing_a_sql_function_does_not_import_duckdb(name: str) -> None:
    assert _import_and_print(name, "'duckdb' in sys.modules") == "False"


@pytest.mark.parametrize("name", ["search_events", "search_stores", "search_cases"])
def test_without_tracing_the_xray_sdk_is_never_imported(name: str) -> None:
    assert _import_and_print(name, "'aws_xray_sdk.core' in sys.modules", POWERTOOLS_TRACE_DISABLED="1") == "False"


def test_on_lambda_the_tracer_traces_and_patches_only_botocore() -> None:
    lambda_env = {"LAMBDA_TASK_ROOT": str(ROOT), "POWERTOOLS_TRACE_DISABLED": "false"}
    printed = _import_and_print(
        "search_events",
        "type(app.tracer).__name__, sorted(sys.modules['aws_xray_sdk.core.patcher']._PATCHED_MODULES)",
        **lambda_env,
    )
    assert printed == "Tracer ['botocore']"


def _import_and_print(name: str, expression: str, **env: str) -> str:
    """Import a function's app in a fresh interpreter, as Lambda does, and print `expression` evaluated after it."""
    probe = (
        f"import sys; sys.path[:0] = [{str(LAYER)!r}, {str(ROOT / 'functions' / name)!r}]; import app; "
        f"print({expression})"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, env={**os.environ, **env}
    )
    return result.stdout.strip()
