"""The package's modules import each other as a DAG: the data flow
lang → engine → tables → http, with the CLI, the gateway and the job backend on
top. Read from the source (``ast``), not by importing: every ``import`` a module
runs — at its top or inside a function — is an edge; imports under
``if TYPE_CHECKING:`` are not, since they never run. A cycle fails with its path."""

from __future__ import annotations

import ast
from pathlib import Path

import qlgate

PACKAGE = Path(qlgate.__file__).parent


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> list[str]:
    if node.level:
        base = module.split(".")
        base = base if is_package else base[:-1]
        base = base[: len(base) - (node.level - 1)]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    # ``from pkg import name`` may name a submodule: an edge to it if it is one
    return [target] + [f"{target}.{alias.name}" for alias in node.names]


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(
    path: Path, modules: set[str], module: str | None = None, *, type_checking: bool = False
) -> set[str]:
    """The package modules ``path`` (the module named ``module``) imports when it runs;
    with ``type_checking``, also those it imports for its annotations only (a layer's
    types must not come from above it either: ``tests/test_layers.py``)."""
    module = module or module_name(path)
    is_package = path.name == "__init__.py"
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking_only(node) and not type_checking:
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.update(_resolve(module, is_package, node))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(), str(path)))
    return {name for name in found if name in modules and name != module}


def import_graph() -> dict[str, set[str]]:
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {module_name(p) for p in paths}
    graph = {module_name(p): imports_of(p, modules) for p in paths}
    # importing ``a.b.c`` runs ``a/__init__`` and ``a/b/__init__`` first: only the package
    # root's own imports matter there, and a submodule's edge to its parents is not a cycle
    return {m: {t for t in targets if not m.startswith(t + ".")} for m, targets in graph.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle as a path (first module repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def test_the_package_imports_form_no_cycle():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " → ".join(cycle or [])


def test_the_cycle_finder_finds_a_cycle_and_its_path():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_imports_inside_functions_count_and_type_checking_ones_do_not(tmp_path):
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from qlgate.engine import run\n"
        "def f():\n    from qlgate.lang import parser\n"
    )
    probe = tmp_path / "probe.py"
    probe.write_text(source)
    modules = {"qlgate.engine.run", "qlgate.lang.parser", "qlgate.lang.probe"}
    assert imports_of(probe, modules, "qlgate.lang.probe") == {"qlgate.lang.parser"}
