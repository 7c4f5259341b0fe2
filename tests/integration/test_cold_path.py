"""The cold path: the Lambda process of the SQL functions never imports DuckDB (only its worker does), and no
function imports the X-Ray SDK unless it will trace."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from tooling.local import LAYER, ROOT

from search_core.catalogue import ACTION_GROUPS, SQL_TABLES


@pytest.mark.parametrize("name", SQL_TABLES)
def test_a_sql_function_answers_without_ever_importing_duckdb(name: str) -> None:
    """The function process loads data and answers through its worker only: DuckDB never enters it."""
    spec = SQL_TABLES[name]
    call = (
        f"from tooling.local import LambdaContext, sql_event; "
        f"status = app.lambda_handler(sql_event({name!r}, {spec.examples[0].sql!r}), LambdaContext())"
        "['response']['httpStatusCode']; app.function.close()"
    )
    assert _import_and_print(name, "status, 'duckdb' in sys.modules", then=call) == "200 False"


@pytest.mark.parametrize("name", ACTION_GROUPS)
def test_without_tracing_the_xray_sdk_is_never_imported(name: str) -> None:
    assert _import_and_print(name, "'aws_xray_sdk.core' in sys.modules", POWERTOOLS_TRACE_DISABLED="1") == "False"


def test_on_lambda_the_tracer_traces_and_patches_only_botocore() -> None:
    lambda_env = {"LAMBDA_TASK_ROOT": str(ROOT), "POWERTOOLS_TRACE_DISABLED": "false"}
    printed = _import_and_print(
        "search_events",
        "type(sys.modules['search_core.observability'].tracer).__name__, "
        "sorted(sys.modules['aws_xray_sdk.core.patcher']._PATCHED_MODULES)",
        **lambda_env,
    )
    assert printed == "Tracer ['botocore']"


def _import_and_print(name: str, expression: str, then: str = "pass", **env: str) -> str:
    """Import a function's app in a fresh interpreter, as Lambda does, run `then`, and print `expression`."""
    probe = (
        f"import sys; sys.path[:0] = [{str(LAYER)!r}, {str(ROOT / 'functions' / name)!r}]; import app; "
        f"sys.path.append({str(ROOT)!r}); {then}; print({expression})"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, env={**os.environ, **env}
    )
    return result.stdout.strip().splitlines()[-1]  # after any metrics the call printed
