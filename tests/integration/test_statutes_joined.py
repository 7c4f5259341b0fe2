"""Statutes and case law joined through their functions: from an article to the decisions citing it (its law named
with it, or 同法 after it), and from a decision to the articles it cites, read as they stood on its date."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from tooling.local import DATA_DIR, LambdaContext, body_of, load_event, status_of

from search_core.doors.envelope import response_bytes
from search_core.engine.budget import BUDGET_BYTES
from tests.conftest import write_export

DECISIONS = [
    {"doc_id": "CIVIL", "date": "2024-03-01", "court": "東京地方裁判所", "case_name": "損害賠償請求事件",
     "main_text": "被告は原告に100万円を支払え。",
     "facts_and_reasons": "被告は民法415条に基づく責任を負わないが、同法709条に基づき損害を賠償する責任を負う。"},
    {"doc_id": "COMMERCIAL", "date": "2024-02-01", "court": "大阪地方裁判所", "case_name": "請求事件",
     "main_text": "請求を棄却する。", "facts_and_reasons": "商法709条の適用はなく、同法709条も同様である。"},
    {"doc_id": "THEFT", "date": "2024-05-01", "court": "東京地方裁判所", "case_name": "窃盗被告事件",
     "main_text": "被告人を懲役1年に処する。", "facts_and_reasons": "被告人の行為は刑法235条に該当する。"},
]  # fmt: skip


@pytest.fixture
def functions(load_function: Callable[..., ModuleType], tmp_path: Path) -> dict[str, ModuleType]:
    cases = write_export(tmp_path / "cases.jsonl", DECISIONS)
    return {
        "cases": load_function("search_cases", CASES_URI=str(cases)),
        "statutes": load_function("search_statutes", STATUTES_URI=str(DATA_DIR / "statutes")),
    }


def call(function: ModuleType, event: dict[str, Any]) -> Any:
    response: dict[str, Any] = function.lambda_handler(event, LambdaContext())
    assert response_bytes(response) <= BUDGET_BYTES
    assert status_of(response) == 200, body_of(response)
    return body_of(response)


def get_article(law: str, article: str, day: str | None = None) -> dict[str, Any]:
    event = load_event("search_statutes/get_article.json")
    event["parameters"] = [{"name": "law", "type": "string", "value": law},
                           {"name": "article", "type": "string", "value": article}]  # fmt: skip
    if day:
        event["parameters"].append({"name": "date", "type": "string", "value": day})
    return event


def search_cases(keywords: str) -> dict[str, Any]:
    event = load_event("search_cases/search_damages.json")
    event["requestBody"]["content"]["application/json"]["properties"] = [
        {"name": "keywords", "type": "string", "value": keywords}
    ]
    return event


def test_an_articles_citing_decisions_are_those_naming_its_law_or_same_law_after_it(
    functions: dict[str, ModuleType],
) -> None:
    """民法709条's keywords find the decision citing 同法709条 after 民法415条, not 商法709条 nor 同法 after 商法."""
    article = call(functions["statutes"], get_article("民法", "第七百九条"))
    found = call(functions["cases"], search_cases(article["cited_by_keywords"]))
    assert [hit["doc_id"] for hit in found["results"]] == ["CIVIL"]
    assert "同法709条" in found["results"][0]["snippet"]


def test_a_decisions_cited_articles_read_as_they_stood_on_its_date(functions: dict[str, ModuleType]) -> None:
    hits = call(functions["cases"], search_cases("窃盗"))["results"]
    cited = hits[0]["cited_articles"]
    assert [(c["law"], c["article"]) for c in cited] == [("刑法", "235条")]
    article = call(functions["statutes"], get_article(cited[0]["law"], cited[0]["article"], hits[0]["date"]))
    assert "懲役" in article["paragraphs"][0]["text"] and article["version"]["effective"] == "2023-07-13"


def test_same_law_is_the_law_named_last_before_it(functions: dict[str, ModuleType]) -> None:
    results = call(functions["cases"], search_cases("709条"))["results"]
    cited = {hit["doc_id"]: [(c["law"], c["article"], c["count"]) for c in hit["cited_articles"]] for hit in results}
    assert cited["CIVIL"] == [("民法", "415条", 1), ("民法", "709条", 1)]
    assert cited["COMMERCIAL"] == [("商法", "709条", 2)]
