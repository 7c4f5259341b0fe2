"""The single Logger, Metrics and Tracer of the process (service and namespace come from POWERTOOLS_* variables)."""

from __future__ import annotations

import os

from aws_lambda_powertools import Logger, Metrics, Tracer

logger = Logger()
# Without a namespace, flushing metrics raises: keep a default so a missing variable cannot fail a request.
metrics = Metrics(namespace=os.environ.get("POWERTOOLS_METRICS_NAMESPACE") or "BedrockAgentSearch")
tracer = Tracer()
