"""Write layers/shared/requirements.txt from pyproject.toml's runtime dependencies (tooling/layer.py).

python scripts/layer_requirements.py           # write it
python scripts/layer_requirements.py --check   # exit 1 if it is out of date
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tooling.layer import REQUIREMENTS, layer_requirements


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    wanted = layer_requirements()
    if args.check:
        if not REQUIREMENTS.exists() or REQUIREMENTS.read_text(encoding="utf-8") != wanted:
            sys.exit("layers/shared/requirements.txt is out of date: run `make schema`")
        return
    REQUIREMENTS.write_text(wanted, encoding="utf-8")


if __name__ == "__main__":
    main()
