"""Action group: statutes (GET /statutes/article: an article as it stood on a day; POST /statutes/search: articles
by keywords; GET /statutes/contents: a law's table of contents)."""

from __future__ import annotations

from datetime import date
from typing import Annotated

from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from search_core.doors.bedrock import body_budget_of, create_app, responses
from search_core.doors.dispatch import ActionGroupFunction
from search_core.kinds.statutes import descriptions, limits
from search_core.kinds.statutes.responses import ArticleAnswer, ContentsAnswer, StatuteSearchAnswer
from search_core.kinds.statutes.service import StatuteSearch

app = create_app()
NOT_FOUND = "法令・条・操作が見つからない"
statutes = StatuteSearch()
Law = Annotated[str, Query(min_length=1, max_length=limits.MAX_LAW_CHARS, description=descriptions.LAW_DESCRIPTION)]
OnDate = Annotated[date | None, Query(description=descriptions.DATE_DESCRIPTION)]


@app.get(
    "/statutes/article",
    description=descriptions.GET_ARTICLE_DESCRIPTION,
    operation_id=descriptions.GET_ARTICLE,
    responses=responses(ArticleAnswer, NOT_FOUND),
)
def get_article(
    law: Law,
    article: Annotated[
        str, Query(min_length=1, max_length=limits.MAX_ARTICLE_CHARS, description=descriptions.ARTICLE_DESCRIPTION)
    ],
    date: OnDate = None,
) -> ArticleAnswer:
    return statutes.article(law, article, body_budget_of(app), date)


@app.post(
    "/statutes/search",
    description=descriptions.SEARCH_DESCRIPTION,
    operation_id=descriptions.SEARCH,
    responses=responses(StatuteSearchAnswer, NOT_FOUND),
)
def search_statutes(
    keywords: Annotated[
        str, Body(embed=True, max_length=limits.MAX_KEYWORDS_CHARS, description=descriptions.KEYWORDS_DESCRIPTION)
    ],
    law: Annotated[
        str | None,
        Body(embed=True, max_length=limits.MAX_LAW_CHARS, description=descriptions.SEARCH_LAW_DESCRIPTION),
    ] = None,
    limit: Annotated[
        int, Body(embed=True, ge=1, le=limits.MAX_LIMIT, description=descriptions.LIMIT_DESCRIPTION)
    ] = limits.DEFAULT_LIMIT,
    date: Annotated[date | None, Body(embed=True, description=descriptions.DATE_DESCRIPTION)] = None,
) -> StatuteSearchAnswer:
    return statutes.search(keywords, body_budget_of(app), law=law, limit=limit, day=date)


@app.get(
    "/statutes/contents",
    description=descriptions.CONTENTS_DESCRIPTION,
    operation_id=descriptions.CONTENTS,
    responses=responses(ContentsAnswer, NOT_FOUND),
)
def law_contents(law: Law, date: OnDate = None) -> ContentsAnswer:
    return statutes.contents(law, body_budget_of(app), date)


function = ActionGroupFunction(app, statutes)
lambda_handler = function.lambda_handler
