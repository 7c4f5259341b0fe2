"""The Bedrock response: its shape, what it echoes of the request, and the room its body has in the byte budget."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pydantic import Field

from search_core.engine.budget import BUDGET_BYTES, ECHO_BUDGET_BYTES

# Room for the status code and the small fields that a skeleton envelope does not yet hold.
_ENVELOPE_SLACK = 64
# actionGroup, apiPath and httpMethod are short names; longer ones are echoed cut to this length.
_MAX_NAME_CHARS = 200
_NAMES = ("actionGroup", "apiPath", "httpMethod")
_ATTRIBUTES = ("sessionAttributes", "promptSessionAttributes")


def absent_when_none(description: str | None = None) -> Any:
    """A field left out of the body when it has no value: the agent pays for every byte it reads."""
    return Field(default=None, description=description, exclude_if=lambda value: value is None)


def response_bytes(response: Any) -> int:
    """Size of a Lambda response (or any part of one) as the Python 3.12+ runtimes send it: json.dumps defaults,
    Unicode unescaped."""
    return len(json.dumps(response, ensure_ascii=False).encode())


def echo_of(request: Mapping[str, Any]) -> dict[str, Any]:
    """What a response echoes of `request`: its names (each cut to _MAX_NAME_CHARS characters) and each attribute map
    whole if it still fits ECHO_BUDGET_BYTES (session attributes first), only text that UTF-8 can carry.

    >>> big = {"p": "あ" * ECHO_BUDGET_BYTES}
    >>> echo = echo_of({"apiPath": "/x", "sessionAttributes": {"k": "v"}, "promptSessionAttributes": big})
    >>> echo["apiPath"], echo["sessionAttributes"], "promptSessionAttributes" in echo
    ('/x', {'k': 'v'}, False)
    """
    echo: dict[str, Any] = {}
    for key in _NAMES:
        value = request.get(key)
        if isinstance(value, str) and encodable(value):
            echo[key] = value[:_MAX_NAME_CHARS]
    room = ECHO_BUDGET_BYTES
    for key in _ATTRIBUTES:
        value = request.get(key)
        size = utf8_size(value) if _is_text_map(value) else None
        if size is not None and size <= room:
            echo[key], room = value, room - size
    return echo


def encodable(value: Any) -> bool:
    """Whether `value` (any JSON value) can be sent as UTF-8: a lone surrogate cannot."""
    return utf8_size(value) is not None


def utf8_size(value: Any) -> int | None:
    """`response_bytes(value)`, or None when it cannot be sent at all (a lone surrogate, a value JSON cannot hold)."""
    try:
        return response_bytes(value)
    except (UnicodeEncodeError, TypeError, ValueError, RecursionError):
        return None


def _is_text_map(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items())


def envelope(request: dict[str, Any], status: int, body: str) -> dict[str, Any]:
    """A Bedrock Agent (OpenAPI) response echoing `request` (an `echo_of` the event)."""
    return {
        "messageVersion": "1.0",
        "response": {
            "actionGroup": request.get("actionGroup", ""),
            "apiPath": request.get("apiPath", ""),
            "httpMethod": request.get("httpMethod", ""),
            "httpStatusCode": status,
            "responseBody": {"application/json": {"body": body}},
        },
        "sessionAttributes": request.get("sessionAttributes") or {},
        "promptSessionAttributes": request.get("promptSessionAttributes") or {},
    }


def body_budget(echo: dict[str, Any]) -> int:
    """How many bytes the serialized body may take, once embedded, in a response echoing `echo` (an `echo_of` the
    event)."""
    return BUDGET_BYTES - response_bytes(envelope(echo, 200, "")) - _ENVELOPE_SLACK
