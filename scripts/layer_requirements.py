"""Write layers/shared/requirements.txt from pyproject.toml's runtime dependencies (the one list of them).

    python scripts/layer_requirements.py           # write it
    python scripts/layer_requirements.py --check   # exit 1 if it is out of date

The layer is built by `sam build` from layers/shared/ alone, so the list has to live there as a file.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "layers" / "shared" / "requirements.txt"


def layer_requirements() -> str:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    lines = ["# Generated from pyproject.toml by scripts/layer_requirements.py; do not edit.", *project["dependencies"]]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    wanted = layer_requirements()
    if args.check:
        if not TARGET.exists() or TARGET.read_text(encoding="utf-8") != wanted:
            sys.exit("layers/shared/requirements.txt is out of date: run `make schema`")
        return
    TARGET.write_text(wanted, encoding="utf-8")


if __name__ == "__main__":
    main()
