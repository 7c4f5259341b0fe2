"""The single Logger, Metrics and Tracer of the process (service and namespace come from POWERTOOLS_* variables).

Powertools' Tracer builds the X-Ray SDK's recorder even when tracing is off, and that recorder imports botocore:
measured, ~150 ms of its own and ~150 ms of botocore at import. So the Tracer exists only where it traces (on
Lambda, tracing not disabled) and patches only botocore, the one traced library these functions call; elsewhere
a stand-in lets the handlers keep their decorator at no cost.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import TypeVar

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.shared.functions import resolve_truthy_env_var_choice

Handler = TypeVar("Handler", bound=Callable[..., object])


class Untraced:
    """What handlers need of a Tracer when nothing is traced: a decorator that leaves them as they are."""

    def capture_lambda_handler(self, handler: Handler) -> Handler:
        return handler


def tracing_enabled(env: Mapping[str, str] = os.environ) -> bool:
    """Powertools' own rule: trace on Lambda (not under `sam local`) unless POWERTOOLS_TRACE_DISABLED is set.

    >>> tracing_enabled({"LAMBDA_TASK_ROOT": "/var/task"}), tracing_enabled({})
    (True, False)
    >>> tracing_enabled({"LAMBDA_TASK_ROOT": "/var/task", "POWERTOOLS_TRACE_DISABLED": "1"})
    False
    """
    disabled = resolve_truthy_env_var_choice(env=env.get("POWERTOOLS_TRACE_DISABLED", "false"))
    return bool(env.get("LAMBDA_TASK_ROOT")) and not env.get("AWS_SAM_LOCAL") and not disabled


logger = Logger()
# Without a namespace, flushing metrics raises: keep a default so a missing variable cannot fail a request.
metrics = Metrics(namespace=os.environ.get("POWERTOOLS_METRICS_NAMESPACE") or "BedrockAgentSearch")
tracer: Tracer | Untraced = Tracer(patch_modules=("botocore",)) if tracing_enabled() else Untraced()
