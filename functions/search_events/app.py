"""Action group: SQL search over events.csv (POST /events/search)."""

from __future__ import annotations

from typing import Annotated, Any

from aws_lambda_powertools.event_handler.openapi.params import Body
from aws_lambda_powertools.utilities.typing import LambdaContext

from search_core.api import create_app, responses, serve
from search_core.datasets.events import EVENTS
from search_core.observability import logger, metrics, tracer
from search_core.responses import body_budget
from search_core.sql_search import SqlSearch, SqlSearchResponse

app = create_app()
search = SqlSearch(EVENTS)


@app.post(
    "/events/search",
    description=EVENTS.operation_description(),
    operation_id="searchEvents",
    responses=responses(SqlSearchResponse),
)
def search_events(
    sql_query: Annotated[str, Body(embed=True, description=EVENTS.sql_query_description())],
) -> SqlSearchResponse:
    return search.search(sql_query, body_budget(app.current_event.raw_event))


@logger.inject_lambda_context
@metrics.log_metrics
@tracer.capture_lambda_handler
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    return serve(app, event, context)
