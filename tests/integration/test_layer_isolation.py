"""The layer depends on nothing outside its own folder: mounted alone and read-only at /opt/python, as Lambda mounts
it (a path with only two parents), every module imports and a function mounted read-only at /var/task answers.

Run in a private mount namespace (`unshare`), so the machine's own /opt and /var are untouched. This is the quick
guard on the repository's layer; the artefact tier runs what `sam build` makes under the runtime client.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tooling.local import DATA_DIR, EVENTS_DIR, LAYER, ROOT

_PROBE = """
import importlib, json, pkgutil, sys
import search_core
for module in pkgutil.walk_packages(search_core.__path__, "search_core."):
    importlib.import_module(module.name)
sys.path.insert(0, "/var/task")
import app
event = json.load(open(sys.argv[1], encoding="utf-8"))
context = type("Context", (), {"function_name": "f", "memory_limit_in_mb": 1024,
    "invoked_function_arn": "arn:aws:lambda:ap-northeast-1:1:function:f", "aws_request_id": "r"})()
print(app.lambda_handler(event, context)["response"]["httpStatusCode"])
"""
# Mounts exist only inside the namespace: a tmpfs over /opt and over /var (so nothing is created on the machine),
# then the copies bound read-only where Lambda puts them.
_MOUNTS = """set -e
mount -t tmpfs tmpfs /opt && mkdir /opt/python
mount --bind "$LAYER_COPY" /opt/python && mount -o remount,bind,ro /opt/python
mount -t tmpfs tmpfs /var && mkdir /var/task
mount --bind "$TASK_COPY" /var/task && mount -o remount,bind,ro /var/task
exec "$@"
"""


def test_the_layer_and_a_function_run_read_only_at_lambdas_paths(tmp_path: Path) -> None:
    layer = tmp_path / "layer"
    shutil.copytree(LAYER / "search_core", layer / "search_core", ignore=shutil.ignore_patterns("__pycache__"))
    task = tmp_path / "task"
    shutil.copytree(ROOT / "functions" / "search_events", task, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(EVENTS_DIR / "search_events" / "free_events.json", tmp_path / "event.json")
    site_packages = next(p for p in sys.path if p.endswith("site-packages"))
    env = {
        "PATH": os.environ["PATH"],
        "PYTHONPATH": os.pathsep.join(["/opt/python", site_packages]),
        "PYTHONDONTWRITEBYTECODE": "1",
        "LAYER_COPY": str(layer),
        "TASK_COPY": str(task),
        "EVENTS_URI": str(DATA_DIR / "events.csv"),
        "DATA_CACHE_DIR": str(tmp_path / "cache"),
        "POWERTOOLS_TRACE_DISABLED": "1",
        "POWERTOOLS_LOG_LEVEL": "CRITICAL",
    }
    command = ["unshare", "--mount", "--propagation", "private", "sh", "-c", _MOUNTS, "mounts"]
    probe = [sys.executable, "-c", _PROBE, str(tmp_path / "event.json")]
    done = subprocess.run([*command, *probe], cwd="/", env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip().splitlines()[-1] == "200"
