"""make demo, the README's second command, as a newcomer runs it: every event in events/ is shown, whatever the kind
of its answer, and the demo ends well."""

from __future__ import annotations

import os
import subprocess
import sys

from tooling.local import EVENTS_DIR, ROOT

from search_core.catalogue import ACTION_GROUPS


def test_the_demo_shows_every_event_and_ends_well() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "layers" / "shared" / "python")}
    for name in ("EVENTS_URI", "STORES_URI", "CASES_URI", "AWS_ENDPOINT_URL_S3", "DATA_CACHE_DIR"):
        env.pop(name, None)
    run = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "demo.py")], env=env, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr[-3000:]
    shown = [f"[{path.stem}]" for group in ACTION_GROUPS for path in (EVENTS_DIR / group).glob("*.json")]
    assert shown and all(event in run.stdout for event in shown), [e for e in shown if e not in run.stdout]
    assert "table=events rows=" in run.stdout and "hits=" in run.stdout and "the whole decision" in run.stdout
