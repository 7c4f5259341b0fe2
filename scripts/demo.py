"""make demo: both functions answer the sample questions from an S3 bucket emulated by moto, no AWS account.

moto's server runs on 127.0.0.1 and boto3 reaches it over HTTP (AWS_ENDPOINT_URL_S3), the same network path as
S3 in Lambda. Every event in events/ is sent through lambda_handler and the answer is printed readably.
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

from scripts.local_lambda import DATA_DIR, EVENTS_DIR, LambdaContext, body_of, import_function, load_event

BUCKET = "concierge-demo"


def start_s3() -> Any:
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    os.environ.update(
        AWS_ENDPOINT_URL_S3=f"http://{host}:{port}",
        AWS_ACCESS_KEY_ID="demo",
        AWS_SECRET_ACCESS_KEY="demo",
        AWS_DEFAULT_REGION="ap-northeast-1",
        EVENTS_URI=f"s3://{BUCKET}/events.csv",
        STORES_URI=f"s3://{BUCKET}/stores.csv",
        POWERTOOLS_LOG_LEVEL="ERROR",
        POWERTOOLS_TRACE_DISABLED="1",
        POWERTOOLS_METRICS_NAMESPACE="BedrockAgentSearchDemo",
        POWERTOOLS_METRICS_DISABLED="true",
    )
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    warnings.filterwarnings("ignore", message="No application metrics to publish")
    import boto3

    s3 = boto3.client("s3")
    s3.create_bucket(Bucket=BUCKET, CreateBucketConfiguration={"LocationConstraint": "ap-northeast-1"})
    for name in ("events.csv", "stores.csv"):
        s3.upload_file(str(DATA_DIR / name), BUCKET, name)
    print(f"moto S3: http://{host}:{port}  bucket {BUCKET}: events.csv, stores.csv\n")
    return server


def show(event_name: str, event: dict[str, Any], response: dict[str, Any], elapsed_ms: float) -> None:
    props = (event.get("requestBody") or {}).get("content", {}).get("application/json", {}).get("properties", [])
    print("━" * 100)
    print(f"■ {event.get('inputText') or event_name}   [{event_name}]")
    for prop in props:
        print(f"  {prop['name']}: {prop['value']}")
    status = response["response"]["httpStatusCode"]
    body = body_of(response)
    print(f"  → HTTP {status}  ({elapsed_ms:.1f} ms)")
    if "error" in body:
        print(textwrap.indent(textwrap.fill(body["error"], 96), "    "))
        return
    for row in body["results"]:
        print("    ・" + " | ".join(f"{k}: {_short(v)}" for k, v in list(row.items())[:4]))
    note = f"  {body['message']}" if body.get("message") else ""
    print(f"    count={body['count']} truncated={body['truncated']}{note}")


def _short(value: Any, width: int = 48) -> str:
    text = str(value).replace("\n", " ")
    return text if len(text) <= width else text[: width - 1] + "…"


def main() -> None:
    server = start_s3()
    context = LambdaContext()
    try:
        for function_name in ("search_events", "search_stores"):
            function = import_function(function_name)
            try:
                for path in sorted((EVENTS_DIR / function_name).glob("*.json")):
                    event = load_event(f"{function_name}/{path.name}")
                    started = time.perf_counter()
                    response = function.lambda_handler(event, context)
                    show(path.stem, event, response, (time.perf_counter() - started) * 1000)
            finally:
                function.search.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
