"""Run the functions locally the way Lambda does: the layer's python/ folder and the function folder on sys.path.

Used by the tests, the demo and the benchmark, so all three exercise exactly what Lambda would import.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from tooling import DATA_DIR, LAYER, ROOT

__all__ = ["DATA_DIR", "LAYER", "ROOT"]
EVENTS_DIR = ROOT / "events"


@dataclass
class ClientContext:
    custom: dict[str, Any]


@dataclass
class LambdaContext:
    function_name: str = "search-local"
    memory_limit_in_mb: int = 2048
    invoked_function_arn: str = "arn:aws:lambda:ap-northeast-1:123456789012:function:search-local"
    aws_request_id: str = "00000000-0000-0000-0000-000000000000"
    client_context: ClientContext | None = None


def gateway_context(tool: str, target: str = "local") -> LambdaContext:
    """The context an AgentCore Gateway invokes a Lambda target with: the tool's name, prefixed with its target's,
    in the client context (its arguments are the whole event)."""
    return LambdaContext(client_context=ClientContext(custom={"bedrockAgentCoreToolName": f"{target}___{tool}"}))


def import_function(name: str, module_name: str | None = None) -> ModuleType:
    """Import functions/<name>/app.py under `module_name` (several copies may live side by side)."""
    folder = ROOT / "functions" / name
    module_name = module_name or f"{name}_app"
    sys.path.insert(0, str(folder))
    try:
        spec = importlib.util.spec_from_file_location(module_name, folder / "app.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(folder))
    return module


def close_function(module: ModuleType) -> None:
    """Stop what a function module holds open (a worker process, a database connection) and forget the module."""
    module.function.close()
    sys.modules.pop(module.__name__, None)


@contextmanager
def sample_functions(names: Iterable[str], tag: str, cache_dir: Path, **env: str) -> Iterator[dict[str, ModuleType]]:
    """Each function imported once (as `<name>_<tag>`) on the sample data with `env` set, which stays set meanwhile,
    and closed afterwards."""
    with environment({"DATA_CACHE_DIR": str(cache_dir), **env}, unset=data_variables()):
        loaded = {name: import_function(name, f"{name}_{tag}") for name in names}
        try:
            yield loaded
        finally:
            for module in loaded.values():
                close_function(module)


def data_variables() -> tuple[str, ...]:
    """The variables that point the functions at their data: unset, the functions serve the sample data in data/
    (outside Lambda)."""
    from search_core.catalogue import ACTION_GROUPS

    return (*(group.data_variable for group in ACTION_GROUPS.values()), "AWS_LAMBDA_FUNCTION_NAME")


@contextmanager
def environment(values: Mapping[str, str], unset: Iterable[str] = ()) -> Iterator[None]:
    """`values` set and the variables `unset` removed meanwhile, each variable as it was afterwards."""
    unset = [name for name in unset if name not in values]
    before = {name: os.environ.get(name) for name in [*values, *unset]}
    for name in unset:
        os.environ.pop(name, None)
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def serve_s3(bucket: str) -> Any:
    """moto's S3 server on 127.0.0.1 with an empty `bucket`; boto3 (and the functions) reach it over HTTP.

    Returns the server: call `.stop()` when done.
    """
    import boto3
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    os.environ.update(
        AWS_ENDPOINT_URL_S3=f"http://{host}:{port}",
        AWS_ACCESS_KEY_ID="local",
        AWS_SECRET_ACCESS_KEY="local",
        AWS_DEFAULT_REGION="ap-northeast-1",
    )
    boto3.client("s3").create_bucket(Bucket=bucket, CreateBucketConfiguration={"LocationConstraint": "ap-northeast-1"})
    return server


def load_event(name: str) -> dict[str, Any]:
    """A Bedrock Agent event from events/, e.g. load_event('search_events/free_events.json')."""
    event: dict[str, Any] = json.loads((EVENTS_DIR / name).read_text(encoding="utf-8"))
    return event


def event_arguments(event: dict[str, Any]) -> dict[str, Any]:
    """What a tool call passes for the call an agent's event makes: its parameters and body fields as one object."""
    body = (event.get("requestBody") or {}).get("content", {}).get("application/json", {}).get("properties", [])
    return {item["name"]: item["value"] for item in [*(event.get("parameters") or []), *body]}


def example_arguments(group: str, path: str, method: str) -> dict[str, Any]:
    """The arguments of the first answerable event of events/<group>/ that calls the operation at `path`."""
    for file in sorted((EVENTS_DIR / group).glob("*.json")):
        event = load_event(f"{group}/{file.name}")
        answerable = not file.stem.startswith(("invalid", "rejected", "unknown"))
        if answerable and (event["apiPath"], event["httpMethod"]) == (path, method):
            return event_arguments(event)
    raise LookupError(f"no event of events/{group}/ calls {method} {path}")


def body_of(response: dict[str, Any]) -> Any:
    return json.loads(response["response"]["responseBody"]["application/json"]["body"])


def status_of(response: dict[str, Any]) -> int:
    status: int = response["response"]["httpStatusCode"]
    return status


def sql_event(group: str, sql: str) -> dict[str, Any]:
    """A real Bedrock event (events/search_events/free_events.json) sent to SQL action group `group` with `sql`.

    Only the action group, the path and the query differ, so every dataset in the catalogue has events.
    """
    event = _sql_group_event(group, "search")
    event["requestBody"]["content"]["application/json"]["properties"][0]["value"] = sql
    return event


def profile_event(group: str, column: str | None = None) -> dict[str, Any]:
    """The same real event turned into a GET of SQL action group `group`'s profile (of `column` alone, if given)."""
    event = _sql_group_event(group, "profile")
    event.update(httpMethod="GET")
    event.pop("requestBody", None)
    event["parameters"] = [] if column is None else [{"name": "column", "type": "string", "value": column}]
    return event


def _sql_group_event(group: str, operation: str) -> dict[str, Any]:
    """The real event sent to `/<dataset>/<operation>` of SQL action group `group`."""
    from search_core.catalogue import SQL_TABLES

    spec = SQL_TABLES[group]
    event = load_event("search_events/free_events.json")
    event.update(actionGroup=group, apiPath=f"/{spec.name}/{operation}")
    return event
