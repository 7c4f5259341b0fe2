"""A function's operations as MCP tools: one tool per operation of its OpenAPI document, named by its operationId,
described by the same words the action group's payload carries, its query parameters and body fields merged into
one object of arguments.

The Gateway's door (`search_core.doors.gateway`) routes a call by these tools; `make schema` writes them into the
template's Gateway targets and the local MCP server lists them, so no door describes an operation by hand.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

# MCP's rule for a tool name (1-128 of these characters); the Gateway adds "<target>___" in front.
TOOL_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,128}$")
# What a schema of an argument keeps: the rest (titles, OpenAPI's nullable) is noise to a model or not JSON Schema.
_KEPT = ("type", "description", "enum", "default", "format", "minimum", "maximum", "minLength", "maxLength", "items")


@dataclass(frozen=True)
class Tool:
    """One operation as a tool: what the model calls, and where each argument goes in the action group's event."""

    name: str
    description: str
    path: str
    method: str
    query: tuple[str, ...]
    body: tuple[str, ...]
    input_schema: dict[str, Any]

    @property
    def arguments(self) -> tuple[str, ...]:
        return self.query + self.body


def tools_of(document: dict[str, Any]) -> dict[str, Tool]:
    """Every operation of an OpenAPI document (as `openapi.document_of` reads it) as a tool, by name.

    >>> doc = {"paths": {"/cases/text": {"get": {"operationId": "readCaseText", "description": "読む",
    ...     "parameters": [{"name": "doc_id", "in": "query", "required": True,
    ...                     "schema": {"type": "string", "title": "Doc Id", "description": "判決"}}]}}}}
    >>> tool = tools_of(doc)["readCaseText"]
    >>> tool.method, tool.query, tool.body, tool.input_schema["required"], tool.input_schema["properties"]
    ('GET', ('doc_id',), (), ['doc_id'], {'doc_id': {'type': 'string', 'description': '判決'}})
    """
    tools = [
        _tool(path, method, operation, document)
        for path, operations in document.get("paths", {}).items()
        for method, operation in operations.items()
    ]
    return {tool.name: tool for tool in tools}


def _tool(path: str, method: str, operation: dict[str, Any], document: dict[str, Any]) -> Tool:
    name = operation["operationId"]
    if not TOOL_NAME.match(name):
        raise ValueError(f"operationId {name!r} is not a valid MCP tool name")
    query = {p["name"]: p for p in operation.get("parameters", []) if p.get("in") == "query"}
    body = _body_schema(operation, document)
    properties = {n: _argument(p["schema"]) for n, p in query.items()}
    properties |= {n: _argument(schema) for n, schema in body.get("properties", {}).items()}
    required = [n for n, p in query.items() if p.get("required")] + list(body.get("required", []))
    return Tool(
        name=name,
        description=operation.get("description", ""),
        path=path,
        method=method.upper(),
        query=tuple(query),
        body=tuple(body.get("properties", {})),
        input_schema={"type": "object", "properties": properties, "required": required, "additionalProperties": False},
    )


def _body_schema(operation: dict[str, Any], document: dict[str, Any]) -> dict[str, Any]:
    """The JSON body's object schema, its $ref to the components followed (Powertools names it Body_<operationId>)."""
    schema = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
    reference = schema.get("$ref")
    if isinstance(reference, str):
        schema = document["components"]["schemas"][reference.rsplit("/", 1)[-1]]
    return dict(schema)


def _argument(schema: dict[str, Any]) -> dict[str, Any]:
    """An argument's JSON Schema with only what a model reads or a validator checks.

    >>> _argument({"type": "integer", "minimum": 1.0, "title": "Limit", "nullable": True, "default": 5})
    {'type': 'integer', 'default': 5, 'minimum': 1}
    """
    kept = {key: schema[key] for key in _KEPT if key in schema}
    # Powertools writes bounds as floats (1.0); an integer's bound reads better, and validates the same, as 1.
    return {k: int(v) if isinstance(v, float) and v.is_integer() else v for k, v in kept.items()}
