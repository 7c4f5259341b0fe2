"""The layer's import graph: no cycle, and the SQL engine (sql/) knows nothing of the datasets it serves."""

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
    # `from search_core.sql import x` names a package; count it as the package's module.
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


def test_the_sql_engine_imports_nothing_about_datasets() -> None:
    edges = graph()
    engine = [name for name in edges if name.startswith("search_core.sql.")]
    assert "search_core.sql.worker" in engine and "search_core.sql.protocol" in engine
    reached = {target for name in engine for target in edges[name]}
    assert reached <= {name for name in edges if name.startswith("search_core.sql.")} | {
        "search_core.errors",
        "search_core.responses",
        "search_core.scrub",
    }


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycle_in({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle_in({"a": {"b"}, "b": set()}) == []
