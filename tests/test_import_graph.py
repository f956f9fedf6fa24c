"""Imports run one way (issue 37): no cycle among riftasp's modules, counting the imports inside
functions (they run too, only later), not those under `if TYPE_CHECKING:` (they never run). The
rulesets' plugins are found by name (entry points, files: riftasp/rulesets/__init__.py), so a
plugin may import the shared modules and no shared module imports a plugin."""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import ROOT

from riftasp.graph import strongly_connected_components

PACKAGE = ROOT / "riftasp"
# The rulesets riftasp brings, each a package of its own (riftasp/rulesets/<name>/).
RULESET_PACKAGES = ("riftasp.rulesets.riftbound", "riftasp.rulesets.sorcery")


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _type_checking_only(tree: ast.AST) -> set[int]:
    """The nodes under `if TYPE_CHECKING:`."""
    under: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            under.update(id(n) for statement in node.body for n in ast.walk(statement))
    return under


def import_graph() -> dict[str, set[str]]:
    """Module -> the riftasp modules it imports (`from package import module` names the module)."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = _type_checking_only(tree)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            if isinstance(node, ast.ImportFrom):
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)] if node.level else []
                target = ".".join([*base, *([node.module] if node.module else [])])
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    edges.add(sub if sub in modules else target)
            elif isinstance(node, ast.Import):
                edges.update(alias.name for alias in node.names)
        graph[name] = {m for m in edges if m in modules and m != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (riftasp/graph.py's Tarjan)."""
    components = strongly_connected_components(sorted(graph), graph)
    return sorted(sorted(c) for c in components if len(c) > 1)


def test_no_import_cycle_in_riftasp():
    assert cycles(import_graph()) == []


def test_the_cycle_finder_finds_a_cycle_through_an_import_inside_a_function():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_no_shared_module_imports_a_ruleset_s_package():
    """A ruleset's plugin is found by its entry point, never imported by the shared modules."""
    graph = import_graph()
    shared = [m for m in graph if not m.startswith(RULESET_PACKAGES)]
    reaching = {m: sorted(t for t in graph[m] if t.startswith(RULESET_PACKAGES)) for m in shared}
    assert {m: t for m, t in reaching.items() if t} == {}
