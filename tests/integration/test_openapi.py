"""The OpenAPI schema each resolver generates: what Bedrock shows the agent."""

from __future__ import annotations

import json
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

from search_core.catalogue import SQL_DATASETS


@pytest.fixture(params=["events", "stores"])
def schema(request: pytest.FixtureRequest, load_function: Callable[..., ModuleType]) -> tuple[Any, dict[str, Any]]:
    function = load_function(f"search_{request.param}")
    return SQL_DATASETS[request.param], json.loads(function.app.get_openapi_json_schema())


def test_the_operation_carries_the_spec(schema: tuple[Any, dict[str, Any]]) -> None:
    spec, document = schema
    operation = document["paths"][f"/{spec.name}/search"]["post"]
    assert operation["description"] == spec.operation_description()
    assert operation["operationId"] in ("searchEvents", "searchStores")


def test_sql_query_is_the_one_required_body_property(schema: tuple[Any, dict[str, Any]]) -> None:
    spec, document = schema
    operation = document["paths"][f"/{spec.name}/search"]["post"]
    ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"].split("/")[-1]
    body = document["components"]["schemas"][ref]
    assert body["required"] == ["sql_query"]
    assert body["properties"]["sql_query"]["description"] == spec.sql_query_description()
    assert document["openapi"].startswith("3.0")
