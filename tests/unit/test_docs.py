"""The README stays a front door, every file, section and module the documentation names exists, and every figure it
gives for a bound is its constant's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tooling import LAYER, ROOT

from search_core.engine.budget import BUDGET_BYTES, ECHO_BUDGET_BYTES, REPLY_BUDGET_BYTES
from search_core.engine.limits import MAX_ITEMS, MAX_NESTING, MAX_ROWS, MAX_SQL_CHARS

README = ROOT / "README.md"
DOCS = [README, *sorted((ROOT / "docs").glob("*.md"))]
README_MOST_BYTES = 8192
# The files the walk-through "Add your own dataset" (docs/datasets.md) has the reader create.
WRITTEN_BY_THE_READER = {
    "layers/shared/python/search_core/datasets/parks.py",
    "functions/search_parks/app.py",
    "events/search_parks/example.json",
    "events/search_parks/profile.json",
    "data/parks.csv",
}
# A path in backticks starting with one of these names a file or folder of the repository (or of the layer), as
# does any path to a Python file; a bare file name (`app.py`) names a module somewhere in these folders.
ROOTS = ("search_core", "functions", "layers", "tests", "tooling", "scripts", "events", "docs", "data")
SHELVES = [path.name for path in (LAYER / "search_core").iterdir() if path.is_dir() and path.name != "__pycache__"]
CODE_FOLDERS = ("functions", "layers/shared/python/search_core", "tooling", "scripts", "tests")

FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
CODE = re.compile(r"`([^`\s]+)`")
MODULE_RUN = re.compile(r"-m (search_core(?:\.\w+)+)")
# Every figure the documentation gives for a bound, as it is written there and made from the bound's constant: changing
# a constant fails the docs until they say its new figure. Prose that needs no figure says "the byte budget".
FIGURES = {
    "README.md": [f"every answer stays under {BUDGET_BYTES:,} bytes"],
    "docs/api.md": [
        f"At most {MAX_ROWS} rows",
        f"`OFFSET {MAX_ROWS}`",
        f"stay within {ECHO_BUDGET_BYTES:,} bytes",
        f"every response stays under {BUDGET_BYTES:,} bytes",
    ],
    "docs/deployment.md": [f"✓ {MAX_ROWS} rows, truncated"],
    "docs/doors.md": [f"the {MAX_SQL_CHARS:,}-character SQL"],
    "docs/security.md": [
        f"`SELECT * FROM (…) LIMIT {MAX_ROWS + 1}`",
        f"A query over {MAX_SQL_CHARS:,} characters",
        f"`LIMIT {MAX_ROWS + 1}` around the query",
        f"at most {MAX_ROWS + 1} rows fetched",
        f"cut at {MAX_ITEMS:,} items and {MAX_NESTING} levels",
        f"the whole reply cut to {REPLY_BUDGET_BYTES // 1000} KB",
        f"Responses over {BUDGET_BYTES:,} bytes",
        f"({MAX_ROWS + 1} rows of structs",
        f"shapes at most {REPLY_BUDGET_BYTES // 1000} KB",
    ],
}
# How the budget's and the row cap's figures read anywhere: each occurrence must be one of FIGURES.
BOUND_FIGURES = re.compile(
    "|".join(
        rf"(?<![\d,]){re.escape(figure)}(?![\d,])"
        for figure in (
            f"{BUDGET_BYTES:,}",
            f"{ECHO_BUDGET_BYTES:,}",
            f"{REPLY_BUDGET_BYTES // 1000} KB",
            f"{MAX_ROWS} rows",
            f"{MAX_ROWS + 1} rows",
            f"OFFSET {MAX_ROWS}",
            f"LIMIT {MAX_ROWS + 1}",
        )
    )
)


def named(doc: Path) -> str:
    return str(doc.relative_to(ROOT))


def prose(doc: Path) -> str:
    """The text outside fenced code blocks."""
    return FENCE.sub("", doc.read_text(encoding="utf-8"))


def anchors(doc: Path) -> set[str]:
    """The anchors GitHub gives `doc`'s headings: lower case, punctuation dropped, spaces as hyphens."""
    headings = re.findall(r"^#+ (.+)$", prose(doc), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


def exists(path: str) -> bool:
    """`path` as the documentation writes it: from the repository's root, from the layer (`search_core/...`), or
    within the package by shelf (`safety/guard.py`)."""
    return any((base / path).exists() for base in (ROOT, LAYER, LAYER / "search_core"))


def test_the_readme_fits_in_8_kb() -> None:
    assert len(README.read_bytes()) <= README_MOST_BYTES


@pytest.mark.parametrize("doc", DOCS, ids=named)
def test_every_relative_link_points_at_a_file_and_section_that_exist(doc: Path) -> None:
    broken = []
    for target in LINK.findall(prose(doc)):
        if re.match(r"[a-z]+:", target):
            continue
        file, _, section = target.partition("#")
        linked = (doc.parent / file).resolve() if file else doc
        if not linked.exists() or (section and linked.suffix == ".md" and section not in anchors(linked)):
            broken.append(target)
    assert broken == []


def is_path(token: str) -> bool:
    if not re.fullmatch(r"[\w./-]+", token) or "/" not in token:
        return False
    return token.endswith(".py") or token.split("/")[0] in (*ROOTS, *SHELVES)


@pytest.mark.parametrize("doc", DOCS, ids=named)
def test_every_path_in_backticks_exists(doc: Path) -> None:
    paths = [token for token in CODE.findall(prose(doc)) if is_path(token)]
    assert [path for path in paths if path not in WRITTEN_BY_THE_READER and not exists(path)] == []


@pytest.mark.parametrize("doc", DOCS, ids=named)
def test_every_python_file_named_alone_exists(doc: Path) -> None:
    names = {token for token in CODE.findall(prose(doc)) if re.fullmatch(r"\w+\.py", token)}
    present = {path.name for folder in CODE_FOLDERS for path in (ROOT / folder).rglob("*.py")}
    assert sorted(names - present) == []


@pytest.mark.parametrize("doc", DOCS, ids=named)
def test_every_module_run_with_python_m_exists(doc: Path) -> None:
    modules = MODULE_RUN.findall(doc.read_text(encoding="utf-8"))
    assert [m for m in modules if not exists(m.replace(".", "/") + ".py")] == []


@pytest.mark.parametrize(
    ("doc", "figure"), [(doc, figure) for doc, figures in FIGURES.items() for figure in figures], ids=str
)
def test_every_figure_the_docs_give_for_a_bound_is_its_constants(doc: str, figure: str) -> None:
    assert figure in (ROOT / doc).read_text(encoding="utf-8")


@pytest.mark.parametrize("doc", DOCS, ids=named)
def test_the_budget_and_row_cap_are_stated_only_where_their_figures_are_checked(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    for figure in FIGURES.get(named(doc), []):
        text = text.replace(figure, "")
    assert BOUND_FIGURES.findall(text) == []
