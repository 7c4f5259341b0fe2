"""The Bedrock Agent's action group door: the resolver, the one place errors become responses, and `serve`.

`serve` answers an action group event, whichever door the call came by (`search_core.doors.dispatch` turns the others'
calls into one): it checks the event's envelope, lets the resolver route and validate it, turns any failure into a
well-formed response in Japanese, echoes the session attributes and enforces the byte budget.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.event_handler import BedrockAgentResolver, Response, content_types
from aws_lambda_powertools.event_handler.openapi.exceptions import RequestValidationError
from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import BaseModel, Field, ValidationError

from search_core.doors.door import INTERNAL_ERROR, UNENCODABLE, Operations
from search_core.doors.envelope import body_budget, echo_of, encodable, envelope, utf8_size
from search_core.doors.validation import describe_errors
from search_core.engine.budget import BUDGET_BYTES, TRUNCATION_MARKER, dumps_body
from search_core.errors import SearchError
from search_core.observability import logger, metrics

_MAX_ERROR_CHARS = 1_000
_BODY_BUDGET = "body_budget"


class ActionGroupDoor:
    """A Bedrock Agent's action group event, answered as it comes: the event every other door's call is turned into.

    It takes any invocation, so it is the last door tried: what is not an action group event gets `serve`'s 422."""

    def recognises(self, event: Any, context: LambdaContext) -> bool:
        return True

    def request(self, event: Any, context: LambdaContext, function: Operations) -> Any:
        return event

    def answer(self, response: dict[str, Any]) -> dict[str, Any]:
        return response


class ErrorResponse(BaseModel):
    error: str = Field(description="何が問題で、どう直せばよいか（日本語）")


def _response(description: str, model: type[BaseModel]) -> Any:
    return {"description": description, "content": {"application/json": {"model": model}}}


def responses(success: type[BaseModel], not_found: str = "操作が見つからない") -> dict[int, Any]:
    """Every status a route answers with, so the schema the agent reads describes the bodies it really gets.

    (Given `responses`, Powertools no longer adds the 200 one from the return type: it is listed here.)
    """
    return {
        200: _response("成功", success),
        400: _response("SQL や条件が受け付けられなかった、または実行に失敗した", ErrorResponse),
        404: _response(not_found, ErrorResponse),
        422: _response("リクエストの項目が足りない、または型や値が不正", ErrorResponse),
        503: _response("データを読み込めない（データセット名を含む）", ErrorResponse),
    }


class _Property(BaseModel):
    name: str
    value: Any  # required: Powertools reads it without a default, so a property without one would be a 500


class _Media(BaseModel):
    properties: list[_Property]


class _RequestBody(BaseModel):
    content: dict[str, _Media]


class BedrockRequest(BaseModel):
    """The parts of a Bedrock Agent event we rely on; anything else in the event is ignored."""

    actionGroup: str
    apiPath: str
    httpMethod: str
    parameters: list[_Property] | None = None
    requestBody: _RequestBody | None = None
    sessionAttributes: dict[str, str] = {}
    promptSessionAttributes: dict[str, str] = {}
    sessionId: str | None = None


def create_app() -> BedrockAgentResolver:
    """A resolver with a UTF-8 serializer and every error mapped to `{"error": "..."}` in Japanese."""
    app = BedrockAgentResolver(serializer=dumps_body)

    @app.exception_handler(SearchError)
    def _search_error(error: SearchError) -> Response[Any]:
        if error.status_code >= 500:
            logger.warning("search unavailable", reason=error.message)
        return _error_response(error.status_code, error.message)

    @app.exception_handler(RequestValidationError)
    def _invalid_request(error: RequestValidationError) -> Response[Any]:
        metrics.add_metric(name="InvalidRequests", unit="Count", value=1)
        return _error_response(422, f"リクエストが不正です: {describe_errors(error.errors())}")

    @app.not_found
    def _unknown_path(_: Exception) -> Response[Any]:
        event = app.current_event
        return _error_response(
            404,
            f"{event.http_method[:10]} {event.api_path[:100]} という操作はありません。"
            "スキーマにある操作だけを呼んでください。",
        )

    @app.exception_handler(Exception)
    def _unexpected(error: Exception) -> Response[Any]:
        logger.exception("unhandled error")
        return _error_response(500, INTERNAL_ERROR)

    return app


def serve(app: BedrockAgentResolver, event: Any, context: LambdaContext) -> dict[str, Any]:
    """Answer any event with a well-formed Bedrock response; never raise."""
    raw = event if isinstance(event, dict) else {}
    echo = echo_of(raw)
    _report_unechoed(raw, echo)
    if not encodable(raw):
        return envelope(echo, 422, dumps_body({"error": UNENCODABLE}))
    try:
        request = BedrockRequest.model_validate(raw)
    except ValidationError as error:
        message = f"イベントの形式が不正です: {describe_errors(error.errors())}"
        return _within_budget(envelope(echo, 422, dumps_body({"error": message})), echo)
    logger.append_keys(
        sessionId=(request.sessionId or "")[:200], actionGroup=echo.get("actionGroup"), apiPath=echo.get("apiPath")
    )
    # The body's room is worked out here, once per call, from the echo the response will carry; the routes read it
    # with `body_budget_of(app)` (Powertools clears the context after each resolve).
    app.context[_BODY_BUDGET] = body_budget(echo)
    try:
        resolved = app.resolve(raw, context)
        response = envelope(echo, resolved["response"]["httpStatusCode"], _body_of(resolved))
    except Exception:
        logger.exception("resolver failed")
        response = envelope(echo, 500, dumps_body({"error": INTERNAL_ERROR}))
    return _within_budget(response, echo)


def body_budget_of(app: BedrockAgentResolver) -> int:
    """How many bytes the body of the answer being served may take (set by `serve` for this call)."""
    return int(app.context[_BODY_BUDGET])


def _body_of(resolved: dict[str, Any]) -> str:
    media = resolved["response"]["responseBody"]
    body = next(iter(media.values()))["body"]
    return body if isinstance(body, str) else dumps_body(body)


def _within_budget(response: dict[str, Any], echo: dict[str, Any]) -> dict[str, Any]:
    size = utf8_size(response)
    if size is not None and size <= BUDGET_BYTES:
        return response
    logger.error("response over budget", size=size)
    return envelope(
        echo, 500, dumps_body({"error": "応答が大きすぎるため返せません。取得する列や行を減らしてください。"})
    )


def _report_unechoed(raw: dict[str, Any], echo: dict[str, Any]) -> None:
    """Log and count the attribute maps a response could not echo (too large, or not UTF-8)."""
    dropped = [key for key in ("sessionAttributes", "promptSessionAttributes") if raw.get(key) and key not in echo]
    if dropped:
        logger.warning("attributes not echoed: too large or not encodable", fields=dropped)
        metrics.add_metric(name="AttributesNotEchoed", unit="Count", value=len(dropped))


def _error_response(status: int, message: str) -> Response[Any]:
    # DuckDB's messages quote the query; a long query must not push its error over the response budget.
    if len(message) > _MAX_ERROR_CHARS:
        message = message[:_MAX_ERROR_CHARS] + TRUNCATION_MARKER
    return Response(status_code=status, content_type=content_types.APPLICATION_JSON, body={"error": message})
