"""make demo: the functions answer the sample questions from an S3 bucket emulated by moto, no AWS account.

moto's server runs on 127.0.0.1 and boto3 reaches it over HTTP (AWS_ENDPOINT_URL_S3), the same network path as
S3 in Lambda. Every event in events/ is sent through lambda_handler and the answer is printed readably; the long
sample decision is then read page by page until next_offset is null. The datasets are those of the catalogue,
published as `make upload-data` publishes them (SQL ones with their prepared DuckDB files).
"""

from __future__ import annotations

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

from search_core.catalogue import ACTION_GROUPS

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
        print(f"  {prop['name']}: {prop['value']}")
    status = response["response"]["httpStatusCode"]
    body = body_of(response)
    print(f"  → HTTP {status}  ({elapsed_ms:.1f} ms)")
    if "error" in body:
        print(textwrap.indent(textwrap.fill(body["error"], 96), "    "))
    elif "text" in body:
        show_page(body)
    else:
        show_results(body)


def show_page(body: dict[str, Any]) -> None:
    print(f"    {body['doc_id']} {body['court']} {body['date']} {body['case_name']}")
    print(f"    offset={body['offset']} next_offset={body['next_offset']} total_chars={body['total_chars']}")
    print(f"    「{_short(body['text'], 90)}」")


def show_results(body: dict[str, Any]) -> None:
    for row in body["results"]:
        print("    ・" + " | ".join(f"{k}: {_short(v)}" for k, v in list(row.items())[:4]))
        if "snippet" in row:
            print(f"      抜粋: {_short(row['snippet'], 90)}")
    flags = f" truncated={body['truncated']}" if "truncated" in body else ""
    note = f"  {body['message']}" if body.get("message") else ""
    print(f"    count={body['count']}{flags}{note}")


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
                if function_name == "search_cases":
                    print("━" * 100 + "\n■ 長い判決を最後まで読む（next_offset をたどる）")
                    read_to_the_end(function, context)
            finally:
                close_function(function)
    finally:
        server.stop()


if __name__ == "__main__":
    main()
