"""Action group: case-law search (POST /cases/search), full-text reading (GET /cases/text), the places a decision
holds its terms (GET /cases/passages) and a decision's headings (GET /cases/outline)."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from search_core.doors.bedrock import body_budget_of, create_app, responses
from search_core.doors.dispatch import ActionGroupFunction
from search_core.kinds.case_law import descriptions, limits
from search_core.kinds.case_law.responses import (
    CaseOutlineResponse,
    CasePassagesResponse,
    CaseSearchResponse,
    CaseTextResponse,
)
from search_core.kinds.case_law.service import CaseSearch

app = create_app()
NOT_FOUND = "操作または判決が見つからない"
cases = CaseSearch()
# The outcomes a search may be narrowed to (text/outcome.py OUTCOMES).
Outcome = Literal[
    "請求認容", "一部認容", "請求棄却", "却下", "控訴棄却", "原判決取消・変更", "上告棄却", "破棄差戻し", "破棄自判",
    "有罪", "有罪（執行猶予）", "無罪", "unknown",
]  # fmt: skip
# The decision to read, as both reading operations take it.
DocId = Annotated[str, Query(max_length=limits.MAX_DOC_ID_CHARS, description=descriptions.DOC_ID_DESCRIPTION)]


@app.post(
    "/cases/search",
    description=descriptions.SEARCH_DESCRIPTION,
    operation_id=descriptions.SEARCH,
    responses=responses(CaseSearchResponse, NOT_FOUND),
)
def search_cases(
    keywords: Annotated[
        str | None,
        Body(embed=True, max_length=limits.MAX_KEYWORDS_CHARS, description=descriptions.KEYWORDS_DESCRIPTION),
    ] = None,
    court: Annotated[
        str | None, Body(embed=True, max_length=limits.MAX_COURT_CHARS, description=descriptions.COURT_DESCRIPTION)
    ] = None,
    limit: Annotated[int, Body(embed=True, ge=1, description=descriptions.LIMIT_DESCRIPTION)] = limits.DEFAULT_LIMIT,
    date_from: Annotated[date | None, Body(embed=True, description=descriptions.DATE_FROM_DESCRIPTION)] = None,
    date_to: Annotated[date | None, Body(embed=True, description=descriptions.DATE_TO_DESCRIPTION)] = None,
    sort: Annotated[
        Literal["newest", "relevance"], Body(embed=True, description=descriptions.SORT_DESCRIPTION)
    ] = "newest",
    passages: Annotated[
        str | None,
        Body(embed=True, max_length=limits.MAX_KEYWORDS_CHARS, description=descriptions.HIT_PASSAGES_DESCRIPTION),
    ] = None,
    brief: Annotated[bool, Body(embed=True, description=descriptions.BRIEF_DESCRIPTION)] = False,
    outcome: Annotated[Outcome | None, Body(embed=True, description=descriptions.OUTCOME_FILTER_DESCRIPTION)] = None,
) -> CaseSearchResponse:
    budget = body_budget_of(app)
    return cases.search(
        keywords,
        budget,
        court=court,
        limit=limit,
        date_from=date_from,
        date_to=date_to,
        sort=sort,
        passages=passages,
        brief=brief,
        outcome=outcome,
    )


@app.get(
    "/cases/text",
    description=descriptions.TEXT_DESCRIPTION,
    operation_id=descriptions.READ_TEXT,
    responses=responses(CaseTextResponse, NOT_FOUND),
)
def read_case_text(
    doc_id: DocId,
    offset: Annotated[int, Query(ge=0, description=descriptions.OFFSET_DESCRIPTION)] = 0,
    heading: Annotated[
        str | None, Query(max_length=limits.MAX_HEADING_CHARS, description=descriptions.HEADING_DESCRIPTION)
    ] = None,
    from_end: Annotated[bool, Query(description=descriptions.FROM_END_DESCRIPTION)] = False,
) -> CaseTextResponse:
    return cases.text(doc_id, offset, body_budget_of(app), heading, from_end)


@app.get(
    "/cases/passages",
    description=descriptions.PASSAGES_DESCRIPTION,
    operation_id=descriptions.FIND_IN_CASE,
    responses=responses(CasePassagesResponse, NOT_FOUND),
)
def find_in_case(
    doc_id: DocId,
    keywords: Annotated[
        str, Query(max_length=limits.MAX_KEYWORDS_CHARS, description=descriptions.PASSAGES_KEYWORDS_DESCRIPTION)
    ],
    limit: Annotated[
        int, Query(ge=1, le=limits.MAX_LIMIT, description=descriptions.PASSAGES_LIMIT_DESCRIPTION)
    ] = limits.DEFAULT_LIMIT,
    start: Annotated[int, Query(ge=0, description=descriptions.PASSAGES_START_DESCRIPTION)] = 0,
    mode: Annotated[
        Literal["each", "near", "sentence"], Query(description=descriptions.PASSAGES_MODE_DESCRIPTION)
    ] = "each",
    heading: Annotated[
        str | None,
        Query(max_length=limits.MAX_HEADING_CHARS, description=descriptions.PASSAGES_HEADING_DESCRIPTION),
    ] = None,
) -> CasePassagesResponse:
    return cases.passages(doc_id, keywords, limit, body_budget_of(app), start=start, mode=mode, heading=heading)


@app.get(
    "/cases/outline",
    description=descriptions.OUTLINE_DESCRIPTION,
    operation_id=descriptions.OUTLINE,
    responses=responses(CaseOutlineResponse, NOT_FOUND),
)
def case_outline(
    doc_id: DocId,
    keywords: Annotated[
        str | None,
        Query(max_length=limits.MAX_KEYWORDS_CHARS, description=descriptions.OUTLINE_KEYWORDS_DESCRIPTION),
    ] = None,
    heading: Annotated[
        str | None,
        Query(max_length=limits.MAX_HEADING_CHARS, description=descriptions.OUTLINE_HEADING_DESCRIPTION),
    ] = None,
) -> CaseOutlineResponse:
    return cases.outline(doc_id, keywords, body_budget_of(app), heading)


function = ActionGroupFunction(app, cases)
lambda_handler = function.lambda_handler
