"""The cold path: the Lambda process of the SQL functions never imports DuckDB nor the rest of what only its worker
runs, nor boto3 (its S3 client is botocore's); and no function imports the X-Ray SDK unless it will trace."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import boto3
import pytest
from moto.server import ThreadedMotoServer
from tooling.local import DATA_DIR, LAYER, ROOT

from search_core.catalogue import ACTION_GROUPS, SQL_TABLES

# What only the worker runs: DuckDB, the checks of a statement, the explanation of an error, the count behind hints.
WORKER_ONLY = (
    "duckdb",
    "search_core.advice.explain",
    "search_core.engine.sandbox",
    "search_core.safety.guard",
    "search_core.safety.policy",
    "search_core.worker.execute",
    "search_core.worker.insight",
)
# boto3 and s3transfer serve publishing alone (storage/s3.py's `upload`).
PUBLISHING_ONLY = ("boto3", "s3transfer")


@pytest.fixture(scope="module")
def events_on_s3(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The environment of a function whose events.csv is on moto's S3 server, reached over HTTP as on Lambda."""
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    env = {
        "AWS_ENDPOINT_URL_S3": f"http://{host}:{port}",
        "AWS_ACCESS_KEY_ID": "local",
        "AWS_SECRET_ACCESS_KEY": "local",
        "AWS_DEFAULT_REGION": "ap-northeast-1",
    }
    client = boto3.client(
        "s3",
        endpoint_url=env["AWS_ENDPOINT_URL_S3"],
        region_name=env["AWS_DEFAULT_REGION"],
        aws_access_key_id="local",
        aws_secret_access_key="local",
    )
    client.create_bucket(Bucket="cold", CreateBucketConfiguration={"LocationConstraint": "ap-northeast-1"})
    client.put_object(Bucket="cold", Key="events.csv", Body=(DATA_DIR / "events.csv").read_bytes())
    yield {**env, "EVENTS_URI": "s3://cold/events.csv", "DATA_CACHE_DIR": str(tmp_path_factory.mktemp("cache"))}
    server.stop()


@pytest.mark.parametrize("name", SQL_TABLES)
def test_a_sql_function_answers_without_ever_importing_duckdb(name: str) -> None:
    """The function process loads data and answers through its worker only: DuckDB never enters it."""
    assert _answer_and_list_loaded(name, WORKER_ONLY) == "200 []"


def test_a_sql_function_fetching_from_s3_imports_neither_boto3_nor_the_worker_s_code(
    events_on_s3: dict[str, str],
) -> None:
    assert _answer_and_list_loaded("search_events", PUBLISHING_ONLY + WORKER_ONLY, **events_on_s3) == "200 []"


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


def _answer_and_list_loaded(name: str, modules: tuple[str, ...], **env: str) -> str:
    """The status of the first example of SQL function `name`, asked in a fresh interpreter, and which of `modules`
    that process had imported by then."""
    call = (
        f"from tooling.local import LambdaContext, sql_event; "
        f"status = app.lambda_handler(sql_event({name!r}, {SQL_TABLES[name].examples[0].sql!r}), LambdaContext())"
        "['response']['httpStatusCode']; app.function.close()"
    )
    return _import_and_print(name, f"status, [m for m in {modules!r} if m in sys.modules]", then=call, **env)


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
