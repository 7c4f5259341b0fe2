"""The artefact tier: what `sam build` makes, run the way the Lambda Python runtime runs it.

The layer is built by its own Makefile (as `sam build` runs it, for this machine's architecture) and mounted
read-only at /opt/python; the function's code read-only at /var/task; only /tmp is writable; the environment is
Lambda's plus the template's variables; the interpreter is Python 3.13 (the template's runtime); and the handler is
loaded from the template's `Handler` string by awslambdaric, the runtime client AWS's own images run, polling a
local Runtime API. Data comes from moto's S3 server over HTTP, uploaded by `make upload-data`'s script.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cfnlint.decode import decode_str
from tooling.local import ROOT, serve_s3

from tests.artefact.runtime_api import RuntimeApi

RUNTIME = "python3.13"
BUILD = ROOT / "build" / "artefact"
BUCKET = "artefact-data"
AWSLAMBDARIC = "awslambdaric==4.2.2"
# Mounts exist only inside a private namespace, so nothing is created on the machine: the root read-only; tmpfs over
# /opt and /var with the layer, the code and the runtime client bound read-only where Lambda has them (/opt/python,
# /var/task, /var/runtime); last a private /tmp (after the binds: their sources may lie under the machine's /tmp).
_MOUNTS = """set -e
mount -o remount,bind,ro /
mount -t tmpfs tmpfs /opt && mkdir /opt/python
mount --bind "$LAYER_COPY" /opt/python && mount -o remount,bind,ro /opt/python
mount -t tmpfs tmpfs /var && mkdir /var/task /var/runtime
mount --bind "$TASK_COPY" /var/task && mount -o remount,bind,ro /var/task
mount --bind "$RUNTIME_COPY" /var/runtime && mount -o remount,bind,ro /var/runtime
mount -t tmpfs tmpfs /tmp
cd /var/task
exec "$@"
"""


@dataclass(frozen=True)
class FunctionSpec:
    """One function as template.yaml declares it."""

    resource: str
    code_dir: Path
    handler: str
    memory_mb: int
    timeout_seconds: int
    environment: dict[str, str]


def runtime_python() -> str:
    """Python 3.13 from PATH or pyenv; the tier fails (never skips) without it."""
    version = RUNTIME.removeprefix("python")
    candidates = [*map(str, sorted(Path.home().glob(f".pyenv/versions/{version}*/bin/{RUNTIME}"))), RUNTIME]
    for candidate in candidates:  # pyenv's shim is on PATH even when it cannot run the version
        if subprocess.run([candidate, "-c", "pass"], capture_output=True, check=False).returncode == 0:
            return candidate
    pytest.fail(f"{RUNTIME} is needed to run the artefact tier as Lambda does (install it with pyenv)")


@pytest.fixture(scope="session")
def template() -> Any:
    parsed, errors = decode_str((ROOT / "template.yaml").read_text(encoding="utf-8"))
    assert not errors
    assert parsed["Globals"]["Function"]["Runtime"] == RUNTIME
    return parsed


@pytest.fixture(scope="session")
def built_layer(template: Any) -> Path:
    """layers/shared/Makefile's build, for this machine's architecture, with bytecode for 3.13."""
    artifacts = BUILD / "layer"
    shutil.rmtree(artifacts, ignore_errors=True)
    artifacts.mkdir(parents=True)
    python = runtime_python()
    subprocess.run(
        ["make", "-s", "-C", str(ROOT / "layers" / "shared"), "build-SharedLayer", f"ARTIFACTS_DIR={artifacts}",
         f"ARCH={platform.machine()}", f"PYTHON={sys.executable}", f"BYTECODE_PYTHON={python}"],
        check=True,
    )  # fmt: skip
    return artifacts / "python"


@pytest.fixture(scope="session")
def runtime_client() -> Path:
    """A Python 3.13 environment holding only awslambdaric, mounted at /var/runtime as Lambda has it."""
    venv = BUILD / "runtime"
    if not (venv / "bin" / "python").exists():
        subprocess.run([runtime_python(), "-m", "venv", "--clear", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", AWSLAMBDARIC], check=True)
    return venv


@pytest.fixture(scope="session")
def s3_data() -> Iterator[dict[str, str]]:
    """moto's S3 server with the three datasets uploaded under the template's keys; yields its client settings."""
    saved = dict(os.environ)
    server = serve_s3(BUCKET)
    settings = {k: os.environ[k] for k in ("AWS_ENDPOINT_URL_S3", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY")}
    subprocess.run([sys.executable, str(ROOT / "scripts" / "upload_data.py"), "--bucket", BUCKET], check=True,
                   env={**os.environ, "PYTHONPATH": str(ROOT / "layers" / "shared" / "python")},
                   capture_output=True)  # fmt: skip
    try:
        yield settings
    finally:
        server.stop()
        os.environ.clear()
        os.environ.update(saved)


def function_specs(template: Any) -> dict[str, FunctionSpec]:
    """Every function of the template, its variables resolved as CloudFormation would with default parameters."""
    defaults = {name: str(p.get("Default", "")) for name, p in template["Parameters"].items()}
    globals_ = template["Globals"]["Function"]
    specs = {}
    for resource, body in template["Resources"].items():
        if body["Type"] != "AWS::Serverless::Function":
            continue
        properties = body["Properties"]
        variables = {**globals_["Environment"]["Variables"], **properties["Environment"]["Variables"]}
        code_dir = ROOT / properties["CodeUri"]
        specs[code_dir.name] = FunctionSpec(
            resource=resource,
            code_dir=code_dir,
            handler=properties.get("Handler", globals_["Handler"]),
            memory_mb=int(properties.get("MemorySize", globals_.get("MemorySize", 128))),
            timeout_seconds=int(properties.get("Timeout", globals_.get("Timeout", 3))),
            environment={k: _resolve(v, defaults) for k, v in variables.items()},
        )
    return specs


def _resolve(value: Any, defaults: dict[str, str]) -> str:
    """A variable's value: plain, or `!Sub [text, {Bucket: ...}]` with the stack's parameters at their defaults."""
    if isinstance(value, dict) and "Fn::Sub" in value:
        text, names = value["Fn::Sub"] if isinstance(value["Fn::Sub"], list) else (value["Fn::Sub"], {})
        for name in {*defaults, *names}:
            text = text.replace("${" + name + "}", BUCKET if name in names else defaults[name])
        return str(text)
    return str(value)


def lambda_environment(spec: FunctionSpec, name: str, api: RuntimeApi, s3: dict[str, str]) -> dict[str, str]:
    """What Lambda sets for a Python 3.13 function, then the template's variables; nothing from this machine."""
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "LANG": "en_US.UTF-8",
        "TZ": ":UTC",
        "PYTHONPATH": "/var/task:/opt/python/lib/python3.13/site-packages:/opt/python",
        "LAMBDA_TASK_ROOT": "/var/task",
        "AWS_EXECUTION_ENV": f"AWS_Lambda_{RUNTIME}",
        "AWS_LAMBDA_RUNTIME_API": api.address,
        "AWS_LAMBDA_FUNCTION_NAME": name,
        "AWS_LAMBDA_FUNCTION_VERSION": "$LATEST",
        "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": str(spec.memory_mb),
        "AWS_LAMBDA_LOG_GROUP_NAME": f"/aws/lambda/{name}",
        "AWS_LAMBDA_LOG_STREAM_NAME": "2026/11/22/[$LATEST]artefact",
        "AWS_REGION": "ap-northeast-1",
        "AWS_DEFAULT_REGION": "ap-northeast-1",
        "AWS_SESSION_TOKEN": "artefact",
        **s3,
        **spec.environment,
    }


@contextmanager
def running_function(
    spec: FunctionSpec, layer: Path, runtime: Path, s3: dict[str, str], **overrides: str
) -> Iterator[RuntimeApi]:
    """The function's process, started as Lambda starts it, answering through a local Runtime API."""
    name = spec.code_dir.name
    api = RuntimeApi(f"arn:aws:lambda:ap-northeast-1:123456789012:function:{name}", spec.timeout_seconds)
    copies = {"LAYER_COPY": str(layer), "TASK_COPY": str(spec.code_dir), "RUNTIME_COPY": str(runtime)}
    env = {**lambda_environment(spec, name, api, s3), **copies, **overrides}
    command = ["unshare", "--mount", "--propagation", "private", "sh", "-c", _MOUNTS, "mounts",
               "/var/runtime/bin/python", "-m", "awslambdaric", spec.handler]  # fmt: skip
    log = BUILD / f"{name}.log"  # the function's output, as CloudWatch would hold it (a pipe could fill and block)
    api.log = log
    with log.open("wb") as output:
        api.process = subprocess.Popen(command, env=env, stdout=output, stderr=subprocess.STDOUT)
    try:
        yield api
    finally:
        api.process.kill()
        api.process.wait(timeout=30)
        api.close()
