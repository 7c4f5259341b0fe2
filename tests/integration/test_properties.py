"""Property-based: random SQL, random events and random tool calls never raise and always get a well-formed answer:
a Bedrock response to an agent's event, a tool result to a Gateway's call or through the local MCP server. And random
decisions citing articles are found alike by every path that reads a citation: the index, the text check, relevance
and findInCase's places."""

from __future__ import annotations

import copy
import json
import os
import random
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft7Validator
from pyroaring import BitMap
from tooling.doors import TOOL_DOORS, Door, door_name, reply_of
from tooling.local import LambdaContext, load_event, sample_functions
from tooling.template import generated_schema

from search_core.catalogue import ACTION_GROUPS, SQL_TABLES
from search_core.doors.envelope import response_bytes
from search_core.doors.tools import tools_of
from search_core.engine.budget import BUDGET_BYTES
from search_core.fulltext.expression import Expression
from search_core.fulltext.grams import grams_of, needed_grams
from search_core.fulltext.index import index_keys
from search_core.fulltext.normalize import normalize
from search_core.fulltext.places import occurrences, places_by_part
from search_core.kinds.case_law.language import parse
from search_core.kinds.case_law.models import CaseQuery, Decision
from search_core.kinds.case_law.store.build import search_text
from search_core.kinds.case_law.store.index import CaseIndex, relevance
from tests.conftest import opened_cases, write_export

# The examples run against the bundled sample data; CI can raise the counts with HYPOTHESIS_EXAMPLES.
EXAMPLES = int(os.environ.get("HYPOTHESIS_EXAMPLES", "300"))
# Every SQL action group of the catalogue, each from its generated example event.
FUNCTIONS = {name: group.example_event for name, group in ACTION_GROUPS.items()}
SQL_FUNCTIONS = {name: FUNCTIONS[name] for name in SQL_TABLES}
# A decision the sample holds, so random reads also reach the 200 page and not only the errors
READABLE_DOC_ID = next(
    p["value"] for p in load_event("search_cases/read_text.json")["parameters"] if p["name"] == "doc_id"
)
SQL_TOKENS = [
    "SELECT", "FROM", "WHERE", "events", "stores", "'events.csv'", '"stores.csv"', "*", "count(*)", "LIMIT", "ORDER BY",
    "GROUP BY", ";", "--", "/*", "*/", "(", ")", "'", '"', "UNION", "WITH", "x AS", "read_text('/etc/passwd')",
    "DROP TABLE events", "is_open_now(opening_hours)", "start_date", "jst_today()", "LIKE '%無料%'", "1", "NULL",
    "repeat('あ', 100000)", "range(5)", "JOIN", "ON", "=", "AND", "OR", "\\", "\u3000", "\x00", "ＳＥＬＥＣＴ",
]  # fmt: skip
sql_text = st.one_of(
    st.text(max_size=200),
    st.lists(st.one_of(st.sampled_from(SQL_TOKENS), st.text(max_size=8)), max_size=25).map(" ".join),
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=50),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
EVENT_KEYS = ["actionGroup", "apiPath", "httpMethod", "parameters", "requestBody", "sessionAttributes",
              "promptSessionAttributes", "messageVersion", "sessionId", "inputText", "agent"]  # fmt: skip


def json_schema(node: Any) -> Any:
    """OpenAPI 3.0 → JSON Schema: `nullable: true` becomes a "null" type (the only difference our schemas use)."""
    if isinstance(node, list):
        return [json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: json_schema(value) for key, value in node.items() if key != "nullable"}
    if node.get("nullable") and "type" in converted:
        converted["type"] = [converted["type"], "null"]
    return converted


@pytest.fixture(scope="module")
def published() -> dict[str, Any]:
    """The OpenAPI document each function publishes (what template.yaml holds)."""
    return {name: json_schema(generated_schema(ACTION_GROUPS[name])) for name in FUNCTIONS}


def assert_matches_published_schema(published: dict[str, Any], name: str, response: dict[str, Any]) -> None:
    inner = response["response"]
    document = published[name]
    operation = document["paths"].get(inner["apiPath"], {}).get(inner["httpMethod"].lower())
    if operation is None:  # unknown path or malformed event: the body is still our error shape
        assert set(json.loads(inner["responseBody"]["application/json"]["body"])) == {"error"}
        return
    declared = operation["responses"][str(inner["httpStatusCode"])]["content"]["application/json"]["schema"]
    body = json.loads(inner["responseBody"]["application/json"]["body"])
    Draft7Validator({**declared, "components": document["components"]}).validate(body)


@pytest.fixture(scope="module")
def functions(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, ModuleType]]:
    with sample_functions(FUNCTIONS, "properties", tmp_path_factory.mktemp("cache")) as loaded:
        yield loaded


def assert_well_formed(response: Any, event: Any) -> None:
    assert isinstance(response, dict) and response["messageVersion"] == "1.0"
    inner = response["response"]
    assert all(isinstance(inner[key], str) for key in ("actionGroup", "apiPath", "httpMethod"))
    assert inner["httpStatusCode"] in (200, 400, 404, 422, 503)
    body = json.loads(inner["responseBody"]["application/json"]["body"])
    if inner["httpStatusCode"] != 200:  # a 200 body's shape is the operation's own: the published schema checks it
        assert isinstance(body["error"], str) and body["error"]
    assert isinstance(response["sessionAttributes"], dict)
    assert isinstance(response["promptSessionAttributes"], dict)
    if isinstance(event, dict) and isinstance(event.get("sessionAttributes"), dict) and inner["httpStatusCode"] != 422:
        assert response["sessionAttributes"] == event["sessionAttributes"]
    assert response_bytes(response) <= BUDGET_BYTES


@pytest.mark.parametrize("name", SQL_FUNCTIONS)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sql=sql_text)
def test_random_sql_never_breaks_the_response(
    functions: dict[str, ModuleType], published: dict[str, Any], name: str, sql: str
) -> None:
    event = load_event(FUNCTIONS[name])
    event["requestBody"]["content"]["application/json"]["properties"][0]["value"] = sql
    response = functions[name].lambda_handler(event, LambdaContext())
    assert_well_formed(response, event)
    assert_matches_published_schema(published, name, response)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    keywords=st.text(max_size=60),
    court=st.one_of(st.none(), st.text(max_size=20)),
    limit=st.one_of(st.none(), st.text(max_size=5), st.integers(-5, 50).map(str)),
    date_from=st.one_of(st.none(), st.text(max_size=12), st.dates().map(str)),
)
def test_random_case_searches_never_break_the_response(
    functions: dict[str, ModuleType],
    published: dict[str, Any],
    keywords: str,
    court: str | None,
    limit: str | None,
    date_from: str | None,
) -> None:
    event = load_event(FUNCTIONS["search_cases"])
    values = {"keywords": keywords, "court": court, "limit": limit, "date_from": date_from}
    properties = [{"name": k, "type": "string", "value": v} for k, v in values.items() if v is not None]
    event["requestBody"]["content"]["application/json"]["properties"] = properties
    response = functions["search_cases"].lambda_handler(event, LambdaContext())
    assert_well_formed(response, event)
    assert_matches_published_schema(published, "search_cases", response)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    doc_id=st.one_of(st.just(READABLE_DOC_ID), st.text(max_size=40)),
    offset=st.one_of(st.none(), st.text(max_size=8), st.integers(-10, 10**7).map(str)),
)
def test_random_text_reads_never_break_the_response(
    functions: dict[str, ModuleType], published: dict[str, Any], doc_id: str, offset: str | None
) -> None:
    event = load_event("search_cases/read_text.json")
    event["parameters"] = [{"name": "doc_id", "type": "string", "value": doc_id}]
    if offset is not None:
        event["parameters"].append({"name": "offset", "type": "integer", "value": offset})
    response = functions["search_cases"].lambda_handler(event, LambdaContext())
    assert_well_formed(response, event)
    assert_matches_published_schema(published, "search_cases", response)


@st.composite
def mutated_events(draw: st.DrawFn, base: dict[str, Any]) -> Any:
    if draw(st.booleans()):
        return draw(json_values)
    event = copy.deepcopy(base)
    for key in draw(st.lists(st.sampled_from(EVENT_KEYS), max_size=4)):
        if draw(st.booleans()):
            event.pop(key, None)
        else:
            event[key] = draw(json_values)
    if draw(st.booleans()):
        event["apiPath"] = draw(
            st.sampled_from(["/events/search", "/stores/search", "/cases/search", "/cases/text", "/", "", "/x/y"])
        )
        event["httpMethod"] = draw(st.sampled_from(["POST", "GET", "post", "DELETE", ""]))
    return event


@pytest.mark.parametrize("name", FUNCTIONS)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_events_never_break_the_response(
    functions: dict[str, ModuleType], published: dict[str, Any], name: str, data: Any
) -> None:
    event = data.draw(mutated_events(load_event(FUNCTIONS[name])))
    response = functions[name].lambda_handler(event, LambdaContext())
    assert_well_formed(response, event)
    assert_matches_published_schema(published, name, response)


# Through the tool doors (a Gateway's call into lambda_handler, and the local MCP server over stdio) each example is a
# round trip through another process for the latter: a fifth of the count keeps CI within its time.
TOOL_PROPERTY = settings(
    max_examples=max(60, EXAMPLES // 5), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.fixture(scope="module", params=TOOL_DOORS, ids=door_name)
def tool_door(
    request: pytest.FixtureRequest, functions: dict[str, ModuleType], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Door]:
    if request.param.in_process:  # on the functions this module already loaded
        yield request.param(functions)
        return
    with request.param.serving(FUNCTIONS, "properties", tmp_path_factory.mktemp("mcp-cache")) as door:
        yield door


def operations_of(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {op["operationId"]: op for item in document["paths"].values() for op in item.values()}


def assert_well_formed_result(published: dict[str, Any], name: str, tool: str, result: Any) -> None:
    """A tool result as the Gateway passes it on: one text block holding our JSON body, an error flagged as one."""
    assert isinstance(result, dict) and set(result) == {"content", "isError"}
    reply = reply_of(result)
    operation = operations_of(published[name]).get(tool)
    if reply.ok:
        assert operation is not None
        declared = operation["responses"]["200"]["content"]["application/json"]["schema"]
        Draft7Validator({**declared, "components": published[name]["components"]}).validate(reply.body)
    else:
        assert set(reply.body) == {"error"} and isinstance(reply.body["error"], str) and reply.body["error"]
    assert response_bytes(result) <= BUDGET_BYTES


@pytest.mark.parametrize("name", SQL_FUNCTIONS)
@TOOL_PROPERTY
@given(sql=sql_text)
def test_random_sql_never_breaks_the_tool_result(
    tool_door: Door, published: dict[str, Any], name: str, sql: str
) -> None:
    tool = SQL_TABLES[name].search_operation
    assert_well_formed_result(published, name, tool, tool_door.call(name, tool, {"sql_query": sql}))


argument_values = st.one_of(
    st.none(), st.text(max_size=30), st.integers(-5, 50), st.integers(), st.dates().map(str), st.booleans(),
    st.floats(), json_values,
)  # fmt: skip


@TOOL_PROPERTY
@given(data=st.data())
def test_random_tool_calls_never_break_the_tool_result(
    tool_door: Door, published: dict[str, Any], data: st.DataObject
) -> None:
    name = data.draw(st.sampled_from(list(FUNCTIONS)))
    tools = tools_of(published[name])
    tool = data.draw(st.one_of(st.sampled_from(list(tools)), st.text(max_size=20)))
    known = sorted({argument for each in tools.values() for argument in each.arguments})
    keys = st.one_of(st.sampled_from(known), st.text(max_size=10)) if known else st.text(max_size=10)
    arguments = data.draw(st.dictionaries(keys, argument_values, max_size=5))
    assert_well_formed_result(published, name, tool, tool_door.call(name, tool, arguments))


# Decisions citing articles, written as decisions write them: a law, perhaps a note on its version or number in
# brackets (or a case's bracket), then units with and without 第, in Arabic, full-width or kanji digits, with their
# branch numbers (の2, the old ノ2); between them, words (a unit's word: 件, 目, 証; a stray bracket or 第; a line).
CITING_LAWS = ("", "民法", "会社法", "同法")
CITING_NOTES = ("", "", "（平成２９年法律第４４号による改正前のもの）", "（明治29年法律第89号）", "(平成16年法律第76号"
                "(以下「改正法」という。)による改正前のもの)", "（ワ）", "(受)", "(1)")  # fmt: skip
CITING_NUMBERS = ("709", "７０９", "七百九", "415", "四百十五", "1", "１", "一", "2", "二", "44")
CITING_BRANCHES = ("", "", "の2", "ノ２", "の二")
CITING_WORDS = ("損害賠償", "に基づき、", "。", "及び", "\n", "件", "目", "証", "令和元年", "第", "(", ")")
Choose = Callable[[Sequence[str]], str]


def written_citation(choose: Choose) -> str:
    """A citation of one to three units, as a decision may write it (`choose` picks one of its options)."""
    law, note = choose(CITING_LAWS), choose(CITING_NOTES)
    first = choose(("", "第")) + choose(CITING_NUMBERS) + choose("条項号") + choose(CITING_BRANCHES)
    more = [choose(("", "第")) + choose(CITING_NUMBERS) + choose("項号") for _ in range(int(choose("012")))]
    return law + note + first + "".join(more)


def written_decision(choose: Choose, pieces: int) -> str:
    """A text of `pieces` citations and words."""
    return "".join(written_citation(choose) if choose("cw") == "c" else choose(CITING_WORDS) for _ in range(pieces))


@st.composite
def citing_texts(draw: st.DrawFn) -> str:
    return written_decision(lambda options: draw(st.sampled_from(options)), draw(st.integers(0, 8)))


@st.composite
def citing_keywords(draw: st.DrawFn, text: str = "") -> str:
    """A citation as an agent may write it, alone or with a word (a case's number, in brackets, stays a phrase); or,
    from `text`, the end of what it writes up to a unit (709条 of 民法（…）第709条の2), so that it often holds."""
    ends = [found.end() for found in re.finditer("[条項号]", text)]
    if draw(st.booleans()) and ends:
        end = draw(st.sampled_from(ends))
        cited = text[draw(st.integers(max(end - 30, 0), end - 1)) : end].split()[-1]
    else:
        cited = written_citation(lambda options: draw(st.sampled_from(options)))
    return cited + draw(st.sampled_from(("", "", " 損害賠償", " 令和元年")))


@dataclass(frozen=True)
class OneDecision:
    """The index of one decision (numbered 0), holding what preparing indexes of its text: grams and keys."""

    text: str

    def holding(self, pieces: tuple[str, ...]) -> BitMap:
        return BitMap([0] if needed_grams(pieces) <= grams_of(self.text) else [])

    def decided_between(self, first: date, last: date) -> BitMap:
        return BitMap()

    def holding_keys(self, keys: tuple[str, ...]) -> BitMap:
        return BitMap([0] if set(keys) <= index_keys(self.text) else [])

    def holding_any_key(self, prefix: str, low: int | None, high: int | None) -> BitMap:
        raise NotImplementedError("no range of sums is drawn")


@settings(max_examples=EXAMPLES, deadline=None)
@given(data=st.data())
def test_every_path_reads_a_citation_alike(data: st.DataObject) -> None:
    """From the red team: 民法（…による改正前のもの）415条 held 415条 by its keys and not by its text, so one
    decision was and was not a match (415条 alone found it; 415条 損害賠償, relevance and findInCase did not)."""
    written = data.draw(citing_texts(), "written")
    keywords = data.draw(citing_keywords(written), "keywords")
    text, expression = normalize(written), parse(keywords)
    for term in expression.positive_terms:
        holds, candidate = term.holds(text), 0 in term.candidates(OneDecision(text))
        assert candidate or not holds  # the index's candidates hold every match
        assert candidate == holds or not term.exact_by_index  # and are the matches, when it says so
        found, shown = occurrences(written, (term,), 1).total, places_by_part(written, (term,), []).total
        assert term.count_in(text) == found == shown  # findInCase's and a hit's places count what relevance counts
        assert holds == (found > 0) == (relevance(text, Expression(((term,),))) > 0)


@pytest.fixture(scope="module")
def citing_decisions(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[CaseIndex, list[dict[str, Any]]]]:
    """A prepared database of decisions citing articles, newest first, and their rows."""
    rng, first = random.Random(31), date(2024, 1, 1)
    rows = [
        {"doc_id": f"c{n:03}", "court": None, "date": (first - timedelta(days=n)).isoformat(), "case_number": None,
         "case_name": None, "main_text": written_decision(rng.choice, rng.randint(0, 2)),
         "facts_and_reasons": written_decision(rng.choice, rng.randint(0, 8))}
        for n in range(150)
    ]  # fmt: skip
    work: Path = tmp_path_factory.mktemp("citing")
    with opened_cases(write_export(work / "cases.jsonl", rows), work / "prepared") as index:
        yield index, rows


# Each example searches 150 prepared decisions three ways (~80 ms): CI's 10,000 examples would add minutes.
@settings(max_examples=max(30, EXAMPLES // 20), deadline=None)
@given(keywords=citing_keywords())
def test_the_prepared_index_finds_a_citation_where_every_path_reads_it(
    citing_decisions: tuple[CaseIndex, list[dict[str, Any]]], keywords: str
) -> None:
    """Searching (newest first, or by relevance) finds exactly the decisions whose text holds the keywords, and
    findInCase finds each term in exactly the decisions whose text holds it."""
    index, rows = citing_decisions
    expression = parse(keywords)
    read = [row["doc_id"] for row in rows if expression.holds_in(search_text(row))]
    newest = index.search(CaseQuery(expression, len(rows)))
    ranked = index.search(CaseQuery(expression, len(rows), by_relevance=True))
    assert [d.doc_id for d in newest.decisions] == read and (newest.total, newest.total_exact) == (len(read), True)
    assert sorted(d.doc_id for d in ranked.decisions) == read and ranked.total == len(read)
    for row in rows:
        decision = Decision(0, row["doc_id"], None, None, None, None, None, row["main_text"], row["facts_and_reasons"])
        for term in expression.positive_terms:
            found = occurrences(decision.full_text, (term,), 1, regions=decision.regions).total
            assert term.holds(search_text(row)) == (found > 0), (term.text, row["doc_id"])
