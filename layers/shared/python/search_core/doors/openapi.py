"""The OpenAPI document a function's resolver generates, read once for every door: the action group's payload, the
Gateway's and the local MCP server's tools all start from `document_of(app)`."""

from __future__ import annotations

import json
from typing import Any

from aws_lambda_powertools.event_handler import BedrockAgentResolver

API_VERSION = "1.0.0"


def document_of(app: BedrockAgentResolver, title: str = "", version: str = API_VERSION) -> dict[str, Any]:
    """The resolver's OpenAPI document as plain JSON, each optional field's one-member anyOf collapsed."""
    document: dict[str, Any] = collapse_any_of(json.loads(app.get_openapi_json_schema(title=title, version=version)))
    return document


def collapse_any_of(schema: Any) -> Any:
    """A one-member anyOf (what Powertools emits for Optional fields) becomes that member.

    >>> collapse_any_of({"court": {"anyOf": [{"type": "string"}], "nullable": True, "title": "Court"}})
    {'court': {'type': 'string', 'nullable': True, 'title': 'Court'}}
    """
    if isinstance(schema, list):
        return [collapse_any_of(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    if isinstance(schema.get("anyOf"), list) and len(schema["anyOf"]) == 1:
        member = schema["anyOf"][0]
        schema = {**member, **{k: v for k, v in schema.items() if k != "anyOf"}}
    return {key: collapse_any_of(value) for key, value in schema.items()}
