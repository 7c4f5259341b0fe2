"""The layer's requirements.txt, generated from pyproject.toml's runtime dependencies (the one list of them).

The layer is built by `sam build` from layers/shared/ alone, so the list has to live there as a file.
"""

from __future__ import annotations

import tomllib

from tooling import ROOT

REQUIREMENTS = ROOT / "layers" / "shared" / "requirements.txt"


def layer_requirements() -> str:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    lines = ["# Generated from pyproject.toml by scripts/layer_requirements.py; do not edit.", *project["dependencies"]]
    return "\n".join(lines) + "\n"
