"""make schema: write what is generated from the catalogue and the resolvers (tooling/template.py says what).

python scripts/schema.py           # write each SQL action group's app.py, template.yaml's regions, then the
                                   # deploy permissions in docs/deployment.md (tooling/deploy_permissions.py)
python scripts/schema.py --check   # exit 1 if any of them differs from what the code generates
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tooling import ROOT
from tooling.deploy_permissions import DOCS, rendered_docs
from tooling.template import derived_files, rendered_template


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="fail if a generated file is out of date")
    args = parser.parse_args()
    template = ROOT / "template.yaml"
    if args.check:
        stale = [path for path, text in derived_files().items() if not path.exists() or path.read_text("utf-8") != text]
        stale += [DOCS] if rendered_docs() != DOCS.read_text(encoding="utf-8") else []
        if stale or rendered_template() != template.read_text(encoding="utf-8"):
            sys.exit(f"generated files are out of date ({', '.join(map(str, stale)) or template}): run `make schema`")
        return
    for path, text in derived_files().items():
        write_if_changed(path, text)
    write_if_changed(template, rendered_template())
    write_if_changed(DOCS, rendered_docs())


def write_if_changed(path: Path, text: str) -> None:
    """Write `path` and say so, unless it already holds `text`."""
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
