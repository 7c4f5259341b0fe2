"""Each function, as `sam build` packages it and the Lambda Python runtime runs it, answers every event in events/
as the in-process handler does, within the response budget, and picks up a new version of its data."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import boto3
import pytest
from tooling.local import (
    DATA_DIR,
    EVENTS_DIR,
    LambdaContext,
    close_function,
    example_arguments,
    gateway_context,
    import_function,
)

from search_core.catalogue import SQL_TABLES
from search_core.engine.budget import BUDGET_BYTES
from tests.artefact.conftest import BUCKET, function_specs, running_function
from tests.integration.test_handlers import first_rows_of_sample_events

pytestmark = pytest.mark.artefact
FUNCTIONS = sorted(path.name for path in (Path(__file__).parents[2] / "functions").iterdir() if path.is_dir())


def events_of(name: str) -> list[Path]:
    return sorted((EVENTS_DIR / name).glob("*.json"))


def in_process_statuses(name: str) -> dict[str, int]:
    """What the repository's handler answers to each event on the same sample data: the frame to agree with."""
    module = import_function(name, f"{name}_artefact_reference")
    try:
        return {
            path.name: module.lambda_handler(json.loads(path.read_text(encoding="utf-8")), LambdaContext())["response"][
                "httpStatusCode"
            ]
            for path in events_of(name)
        }
    finally:
        close_function(module)


def test_every_function_of_the_template_has_events(template: Any) -> None:
    assert set(function_specs(template)) == set(FUNCTIONS)
    assert all(events_of(name) for name in FUNCTIONS)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_the_built_function_answers_every_event_as_the_code_does(
    template: Any, built_layer: Path, runtime_client: Path, s3_data: dict[str, str], name: str
) -> None:
    expected = in_process_statuses(name)
    with running_function(function_specs(template)[name], built_layer, runtime_client, s3_data) as api:
        for path in events_of(name):
            outcome = api.invoke(json.loads(path.read_text(encoding="utf-8")))
            assert outcome.kind == "response", f"{path.name}: {outcome.body[:2000]!r}"
            assert len(outcome.body) <= BUDGET_BYTES, path.name
            response = outcome.json()
            assert response["response"]["httpStatusCode"] == expected[path.name], path.name
            body = response["response"]["responseBody"]["application/json"]["body"]
            assert "\\u" not in outcome.body.decode() or not any("\u3040" <= c <= "\u30ff" for c in body)
        if name in SQL_TABLES:  # published by make upload-data: served from its prepared file
            assert '"prepared":true' in api.log.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", FUNCTIONS)
def test_the_built_function_answers_each_tool_call_of_a_gateway_as_the_code_does(
    template: Any, built_layer: Path, runtime_client: Path, s3_data: dict[str, str], name: str
) -> None:
    module = import_function(name, f"{name}_artefact_tools")
    try:
        calls = {t.name: example_arguments(name, t.path, t.method) for t in module.function.tools.values()}
        calls["noSuchTool"] = {}
        expected = {tool: module.lambda_handler(args, gateway_context(tool))["isError"] for tool, args in calls.items()}
    finally:
        close_function(module)
    assert not any(error for tool, error in expected.items() if tool != "noSuchTool")
    with running_function(function_specs(template)[name], built_layer, runtime_client, s3_data) as api:
        for tool, arguments in calls.items():
            outcome = api.invoke(arguments, {"custom": {"bedrockAgentCoreToolName": f"target___{tool}"}})
            assert outcome.kind == "response", f"{tool}: {outcome.body[:2000]!r}"
            result = outcome.json()
            assert result["isError"] == expected[tool], (tool, result)
            assert isinstance(json.loads(result["content"][0]["text"]), dict)


def count_event() -> dict[str, Any]:
    """An agent's event asking for the number of events."""
    event = json.loads((EVENTS_DIR / "search_events" / "free_events.json").read_text(encoding="utf-8"))
    event["requestBody"]["content"]["application/json"]["properties"][0]["value"] = "SELECT count(*) AS n FROM events"
    return dict(event)


def counted(api: Any) -> Any:
    """The events the running function counts."""
    return json.loads(api.invoke(count_event()).json()["response"]["responseBody"]["application/json"]["body"])[
        "results"
    ]


@contextmanager
def events_replaced_by_five(spec: Any, s3_data: dict[str, str]) -> Iterator[None]:
    """The events object holds five rows for the block, the sample again after it."""
    key = spec.environment["EVENTS_URI"].removeprefix(f"s3://{BUCKET}/")
    s3 = boto3.client("s3", endpoint_url=s3_data["AWS_ENDPOINT_URL_S3"], region_name="ap-northeast-1")
    s3.put_object(Bucket=BUCKET, Key=key, Body=first_rows_of_sample_events(5))
    try:
        yield
    finally:
        s3.put_object(Bucket=BUCKET, Key=key, Body=(DATA_DIR / "events.csv").read_bytes())


def test_a_new_version_of_the_data_is_served_without_a_restart(
    template: Any, built_layer: Path, runtime_client: Path, s3_data: dict[str, str]
) -> None:
    spec = function_specs(template)["search_events"]
    with running_function(spec, built_layer, runtime_client, s3_data, DATA_REFRESH_SECONDS="0") as api:
        assert counted(api) == [{"n": 32}]
        with events_replaced_by_five(spec, s3_data):
            assert counted(api) == [{"n": 5}]


def test_a_function_restored_from_a_snapstart_snapshot_serves_the_data_of_now(
    template: Any, built_layer: Path, runtime_client: Path, s3_data: dict[str, str]
) -> None:
    spec = function_specs(template)["search_events"]
    snap_start = {"AWS_LAMBDA_INITIALIZATION_TYPE": "snap-start", "DATA_REFRESH_SECONDS": "3600"}
    with running_function(spec, built_layer, runtime_client, s3_data, **snap_start) as api:
        assert api.snapshot_taken.wait(timeout=60)  # the before-snapshot hook has run its query
        with events_replaced_by_five(spec, s3_data):
            api.restore()
            assert counted(api) == [{"n": 5}]
            assert api.init_error is None
        log = api.log.read_text(errors="replace") if api.log else ""
        assert "warmed for the snapshot" in log and "restored from the snapshot" in log
