"""make demo: the functions answer the sample questions from an S3 bucket emulated by moto, no AWS account.

moto's server runs on 127.0.0.1 and boto3 reaches it over HTTP (AWS_ENDPOINT_URL_S3), the same network path as
S3 in Lambda. Every event in events/ is sent through lambda_handler and the answer is printed readably, whatever
its kind (rows, a profile, passages, a page, an error); the long sample decision is then read page by page until
next_offset is null. The datasets are those of the catalogue, published as `make upload-data` publishes them (SQL
ones with their prepared DuckDB files).
"""

from __future__ import annotations

import json
import logging
import os
import sys
import textwrap
import time
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tooling.local import (
    EVENTS_DIR,
    LambdaContext,
    body_of,
    close_function,
    import_function,
    load_event,
    serve_s3,
)

from search_core.catalogue import ACTION_GROUPS, CaseLaw

BUCKET = "concierge-demo"


def start_s3() -> Any:
    """moto's S3 with every dataset of the catalogue published as `make upload-data` does, and each function's
    variable pointing at it."""
    server = serve_s3(BUCKET)
    os.environ.update(
        POWERTOOLS_LOG_LEVEL="ERROR",
        POWERTOOLS_TRACE_DISABLED="1",
        POWERTOOLS_METRICS_NAMESPACE="BedrockAgentSearchDemo",
        POWERTOOLS_METRICS_DISABLED="true",
    )
    os.environ.update({g.data_variable: f"s3://{BUCKET}/{g.default_key}" for g in ACTION_GROUPS.values()})
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    warnings.filterwarnings("ignore", message="No application metrics to publish")
    from tooling.publish import publish_catalogue  # after the log level is set: it imports the functions' logger

    print(f"moto S3: {os.environ['AWS_ENDPOINT_URL_S3']}  bucket {BUCKET}")
    for line in publish_catalogue(BUCKET):
        print(f"  {line}")
    print()
    return server


def show(event_name: str, event: dict[str, Any], response: dict[str, Any], elapsed_ms: float) -> None:
    props = (event.get("requestBody") or {}).get("content", {}).get("application/json", {}).get("properties", [])
    print("━" * 100)
    print(f"■ {event.get('inputText') or event_name}   [{event_name}]  {event['httpMethod']} {event['apiPath']}")
    for prop in [*props, *event.get("parameters", [])]:
        print(f"  {prop['name']}: {_short(prop['value'], 96)}")
    print(f"  → HTTP {response['response']['httpStatusCode']}  ({elapsed_ms:.1f} ms)")
    show_body(body_of(response))


def show_body(body: dict[str, Any]) -> None:
    """Each kind of answer by what it holds (an error, a page, passages, a profile, rows), anything else as JSON."""
    if "error" in body:
        print(textwrap.indent(textwrap.fill(str(body["error"]), 96), "    "))
    elif "text" in body:
        show_page(body)
    elif "passages" in body:
        show_passages(body)
    elif "columns" in body:
        show_profile(body)
    elif "results" in body:
        show_results(body)
    else:
        print(f"    {_short(json.dumps(body, ensure_ascii=False), 96)}")


def show_page(body: dict[str, Any]) -> None:
    print(f"    {body.get('doc_id')} {body.get('court')} {body.get('date')} {body.get('case_name')}")
    where = f"offset={body.get('offset')} next_offset={body.get('next_offset')}"
    print(f"    {where} total_chars={body.get('total_chars')}")
    print(f"    「{_short(body.get('text'), 90)}」")


def show_passages(body: dict[str, Any]) -> None:
    print(f"    {body.get('doc_id')} {body.get('case_name')}  hits={body.get('hits')} more={body.get('more')}")
    for passage in body.get("passages", []):
        print(f"    ・offset {passage.get('offset')} [{passage.get('term')}] {_short(passage.get('text'), 80)}")


def show_profile(body: dict[str, Any]) -> None:
    print(f"    table={body.get('table')} rows={body.get('rows')} sampled_rows={body.get('sampled_rows')}")
    for column in body.get("columns", []):
        summary = column.get("summary") or {}
        top = [f"{v.get('value')} ({v.get('count')})" for v in summary.get("top_values") or [] if isinstance(v, dict)]
        shown = top or summary.get("samples") or [f"{summary.get('minimum')}〜{summary.get('maximum')}"]
        print(f"    ・{column.get('name')} ({column.get('type')}): {_short(', '.join(map(str, shown)), 80)}")


def show_results(body: dict[str, Any]) -> None:
    for row in body.get("results", []):
        print("    ・" + " | ".join(f"{k}: {_short(v)}" for k, v in list(row.items())[:4]))
        if "snippet" in row:
            print(f"      抜粋: {_short(row['snippet'], 90)}")
    flags = f" truncated={body['truncated']}" if "truncated" in body else ""
    total = f" total={body['total']}" if "total" in body else ""
    note = f"  {body['message']}" if body.get("message") else ""
    print(f"    count={body.get('count')}{total}{flags}{note}")


def read_to_the_end(function: Any, context: LambdaContext) -> None:
    """Page through the long sample decision the way an agent would."""
    event = load_event("search_cases/read_text.json")
    pages, total = 0, 0
    while True:
        body = body_of(function.lambda_handler(event, context))
        pages, total = pages + 1, total + len(body["text"])
        print(f"    page {pages}: offset={body['offset']} chars={len(body['text'])} next_offset={body['next_offset']}")
        if body["next_offset"] is None:
            break
        event["parameters"][1]["value"] = str(body["next_offset"])
    print(f"    {pages} pages, {total} characters of {body['total_chars']}: the whole decision, nothing repeated")


def _short(value: Any, width: int = 48) -> str:
    text = str(value).replace("\n", " ")
    return text if len(text) <= width else text[: width - 1] + "…"


def main() -> None:
    server = start_s3()
    context = LambdaContext()
    try:
        for function_name in ACTION_GROUPS:
            function = import_function(function_name)
            try:
                for path in sorted((EVENTS_DIR / function_name).glob("*.json")):
                    event = load_event(f"{function_name}/{path.name}")
                    started = time.perf_counter()
                    response = function.lambda_handler(event, context)
                    show(path.stem, event, response, (time.perf_counter() - started) * 1000)
                if isinstance(ACTION_GROUPS[function_name].kind, CaseLaw):
                    print("━" * 100 + "\n■ 長い判決を最後まで読む（next_offset をたどる）")
                    read_to_the_end(function, context)
            finally:
                close_function(function)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
