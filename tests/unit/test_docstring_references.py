"""What the layer's comments and docstrings point a reader to exists: every file path they write, every module
they name in full (`search_core.engine.budget`, with a name defined in it), and every module a `python -m` runs.

A path (a token ending in .py) resolves against the writing module's own package or any package above it up to
search_core/ (`store/index.py` from kinds/case_law/models.py), against the repository's root (`scripts/...`,
`tests/...`, `functions/...`), or, written bare, as a file name only one module of the layer has (`courts.py`).
A path holding a placeholder (`functions/<name>/app.py`) names no one file and is not checked.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from functools import cache
from pathlib import Path

import pytest

import search_core

PACKAGE = Path(search_core.__file__).parent
REPOSITORY = PACKAGE.parents[3]
MODULES = sorted(path for path in PACKAGE.rglob("*.py") if "__pycache__" not in path.parts)
_PATH = re.compile(r"(?<![\w/.<>-])((?:[\w.-]+/)*[\w-]+\.py)\b")
_FULL_NAME = re.compile(r"\bsearch_core(?:\.\w+)+")
_RUN = re.compile(r"python -m ([\w.]+)")

# Stale references in modules the lead is editing: (module, as written). Fixed by the lead, who then empties this
# list; each is expected to fail until then, and the test says so once it passes.


def prose(path: Path) -> list[str]:
    """The comments of `path` and its strings that stand as statements (docstrings, and notes on attributes)."""
    source = path.read_text(encoding="utf-8")
    texts = [t.string for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            texts.append(node.value.value)
    return texts


def resolves(written: str, module: Path) -> bool:
    """Whether the path `written` in `module` names a file that exists."""
    relative = written.removeprefix("search_core/")
    packages = [module.parent, *module.parent.parents]
    bases = [p for p in packages if p == PACKAGE or PACKAGE in p.parents] + [REPOSITORY]
    if any((base / relative).is_file() for base in bases):
        return True
    return "/" not in written and sum(path.name == written for path in MODULES) == 1


def module_path(name: str) -> Path | None:
    """The file of module `name` (a package's __init__.py), or None if there is no such module."""
    parts = name.split(".")[1:]
    for candidate in (PACKAGE.joinpath(*parts).with_suffix(".py"), PACKAGE.joinpath(*parts, "__init__.py")):
        if parts and candidate.is_file():
            return candidate
    return PACKAGE / "__init__.py" if not parts else None


def defines(path: Path, name: str) -> bool:
    """Whether module `path` binds `name` at its top level (a def, a class, an assignment or an import)."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.name == name:
            return True
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return True
        if isinstance(node, ast.Import | ast.ImportFrom) and any((a.asname or a.name) == name for a in node.names):
            return True
    return False


def names_something(full_name: str) -> bool:
    """Whether `search_core.x.y[.attribute]` names a module, or a name that module defines."""
    if module_path(full_name) is not None:
        return True
    owner, _, attribute = full_name.rpartition(".")
    path = module_path(owner)
    return path is not None and defines(path, attribute)


def runs(name: str) -> bool:
    """Whether `python -m name` runs something: the module exists and acts when run as the main one."""
    path = module_path(name)
    return path is not None and "__name__ == " in path.read_text(encoding="utf-8")


@cache
def dangling() -> frozenset[tuple[str, str]]:
    """Every reference that names nothing, as (module relative to search_core/, as written)."""
    found: set[tuple[str, str]] = set()
    for module in MODULES:
        where = module.relative_to(PACKAGE).as_posix()
        for text in prose(module):
            found |= {(where, p) for p in _PATH.findall(text) if not resolves(p, module)}
            names = _FULL_NAME.findall(_RUN.sub("", text))  # a module run is checked as one below
            found |= {(where, n) for n in names if not names_something(n)}
        source = module.read_text(encoding="utf-8")
        found |= {(where, f"python -m {n}") for n in _RUN.findall(source) if not runs(n)}
    return frozenset(found)


def test_every_reference_in_comments_and_docstrings_names_something() -> None:
    assert dangling() == set()


@pytest.mark.parametrize(
    ("written", "module", "expected"),
    [
        ("safety/plan.py", "worker/execute.py", True),
        ("store/index.py", "kinds/case_law/models.py", True),
        ("courts.py", "kinds/case_law/store/index.py", True),
        ("scripts/bench_cases.py", "kinds/case_law/store/index.py", True),
        ("texts.py", "kinds/case_law/store/build.py", False),
        ("limits.py", "worker/client.py", False),  # two modules have that name, neither in worker/
    ],
)
def test_a_path_resolves_from_its_package_the_layer_or_the_repository(
    written: str, module: str, expected: bool
) -> None:
    assert resolves(written, PACKAGE / module) is expected


def test_a_placeholder_path_is_not_read_as_a_file() -> None:
    assert _PATH.findall("each functions/<name>/app.py and functions/search_<dataset>/app.py") == []


def test_a_full_name_may_end_in_a_name_its_module_defines() -> None:
    assert names_something("search_core.engine.budget.BUDGET_BYTES")
    assert not names_something("search_core.engine.budget.NOTHING")
    assert not names_something("search_core.prepare")
