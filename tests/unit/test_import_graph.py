"""The layer's import graph: no cycle, and each shelf imports only from the shelves below it."""

from __future__ import annotations

import ast
from pathlib import Path

import search_core

PACKAGE = Path(search_core.__file__).parent


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """Every search_core module `path` imports when it runs, at any depth of its code (deferred imports count too;
    those under `if TYPE_CHECKING:` do not)."""
    found: set[str] = set()
    pending: list[ast.AST] = [ast.parse(path.read_text(encoding="utf-8"))]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            pending.extend(node.orelse)
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("search_core"):
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("search_core")}
        pending.extend(ast.iter_child_nodes(node))
    return found


def graph() -> dict[str, set[str]]:
    modules = {module_name(path): imports_of(path) for path in PACKAGE.rglob("*.py")}
    # `from search_core.advice import x` names a package; count it as the package's module.
    return {name: {target for target in targets if target in modules} for name, targets in modules.items()}


def cycle_in(edges: dict[str, set[str]]) -> list[str]:
    """One import cycle, as the modules along it, or [] when there is none."""
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = "open"
        path.append(node)
        for target in sorted(edges.get(node, ())):
            if state.get(target) == "open":
                return [*path[path.index(target) :], target]
            if target not in state and (found := visit(target)):
                return found
        state[node] = "done"
        path.pop()
        return []

    for node in sorted(edges):
        if node not in state and (found := visit(node)):
            return found
    return []


def test_the_layer_has_no_import_cycle() -> None:
    assert cycle_in(graph()) == []


# The shelves, lowest first: a module may import from its own shelf and the shelves below it, never above. The
# README's "Where a change goes" names the same shelves.
SHELVES: list[tuple[str, ...]] = [
    ("errors", "scrub", "observability"),
    ("engine",),
    ("safety",),
    ("advice",),
    ("worker",),
    ("datasets",),
    ("catalogue", "settings", "storage"),
    ("fulltext",),
    ("doors",),
    ("kinds",),
]


def shelf_of(module: str) -> int:
    """
    >>> shelf_of("search_core.worker.client"), shelf_of("search_core.kinds.case_law.store.index")
    (4, 9)
    """
    top = module.removeprefix("search_core.").split(".")[0]
    return next((level for level, names in enumerate(SHELVES) if top in names), -1)


def upward_imports(edges: dict[str, set[str]]) -> list[tuple[str, str]]:
    return sorted(
        (name, target) for name, targets in edges.items() for target in targets if shelf_of(target) > shelf_of(name)
    )


def test_every_module_sits_on_a_shelf() -> None:
    assert [name for name in graph() if shelf_of(name) < 0] == ["search_core"]


def test_no_module_imports_from_a_shelf_above_its_own() -> None:
    assert upward_imports(graph()) == []


def test_an_upward_import_is_found() -> None:
    assert upward_imports({"search_core.engine.limits": {"search_core.kinds.sql_table.service"}}) == [
        ("search_core.engine.limits", "search_core.kinds.sql_table.service")
    ]


def test_the_engine_imports_nothing_about_datasets_or_kinds() -> None:
    edges = graph()
    lower = [name for name in edges if 0 <= shelf_of(name) <= shelf_of("search_core.worker")]
    assert "search_core.worker.process" in lower and "search_core.engine.sandbox" in lower
    reached = {target for name in lower for target in edges[name]}
    assert not {target for target in reached if target.split(".")[1] in ("datasets", "kinds", "doors", "catalogue")}


def kind_of(module: str) -> str | None:
    """
    >>> kind_of("search_core.kinds.case_law.store.index"), kind_of("search_core.fulltext.terms")
    ('case_law', None)
    """
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "kinds" else None


def imports_across_kinds(edges: dict[str, set[str]]) -> list[tuple[str, str]]:
    return sorted(
        (name, target)
        for name, targets in edges.items()
        for target in targets
        if kind_of(name) and kind_of(target) and kind_of(name) != kind_of(target)
    )


def test_no_kind_imports_another_kind() -> None:
    assert imports_across_kinds(graph()) == []
    assert imports_across_kinds({"search_core.kinds.statutes.x": {"search_core.kinds.case_law.language"}}) != []


def test_the_full_text_engine_knows_no_kind_and_no_door() -> None:
    edges = graph()
    engine = [name for name in edges if name.startswith("search_core.fulltext")]
    assert "search_core.fulltext.expression" in engine
    assert not {t for name in engine for t in edges[name] if t.split(".")[1] in ("kinds", "doors", "catalogue")}


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycle_in({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle_in({"a": {"b"}, "b": set()}) == []
