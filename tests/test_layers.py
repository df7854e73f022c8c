"""The package's layers, as a contract: each module belongs to one layer, and
imports only from its own layer or the layers below it. Read from the source
(``ast``, as ``test_imports.py`` does), counting the imports under
``if TYPE_CHECKING:`` too: a type that comes from above ties the layers as
surely as a call does (a hook spec naming the engine's ``RequestInfo`` made a
ring through tables, routes and the engine).

The order, bottom to top (CONTRIBUTING.md, "Layout", describes it; this file is
the authority). Within one layer, modules of different packages may import each
other; ``test_imports.py`` keeps that free of cycles."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_imports import PACKAGE, imports_of, module_name

# bottom to top: (layer, the modules and packages in it)
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # leaves: values, errors and records every layer shares, and helpers that import
    # nothing of the package (config_keys: the keys' table; config_schema: checking a
    # document against it; config_values: typed reads through it, used by every settings class)
    (
        "base",
        (
            "qlgate._version",
            "qlgate.errors",
            "qlgate.values",
            "qlgate.request_info",
            "qlgate.fields",
            "qlgate.extras",  # which extra a feature needs, and the error that names it
            "qlgate.emulators",  # the emulators installed beside qlgate, found by entry point
            "qlgate.entry_points",  # the entry points on sys.path, read without importlib.metadata
            "qlgate.diagnostics",
            "qlgate.trace_context",  # a request's W3C trace ids: the engine sends them, no OpenTelemetry
            "qlgate.timers",
            "qlgate.suggest",
            "qlgate.hosts",  # the host allow-list and the origins it compares (trust.py holds the rest)
            "qlgate.ports",
            "qlgate.loop",
            "qlgate.config_keys",
            "qlgate.config_schema",
            "qlgate.config_values",
            "qlgate.config_position",
            "qlgate.config_docs",
        ),
    ),
    ("lang", ("qlgate.lang",)),  # the language: grammar, parser, AST, templates
    # deployer JavaScript in a sandbox (ql.io's EJS templates and .js patches): used by tables,
    # it imports nothing but the base
    ("js", ("qlgate.js",)),
    ("http", ("qlgate.http",)),  # sending: the client, codecs, the outbound proxy
    # the deployer's config (its ``proxy`` is read with http's parser), and which
    # environment variable a key is read from (config_env: the names messages give)
    ("config", ("qlgate.config", "qlgate.config_env")),
    ("tables", ("qlgate.tables",)),  # table definitions, the requests they build, their answers
    ("routes", ("qlgate.routes",)),  # routes: scripts over tables, behind a path
    # what the engine consults around each call: cached answers, the partner APIs'
    # limits, OAuth2 tokens, and what a caller's script may do (trust)
    ("services", ("qlgate.cache", "qlgate.limits", "qlgate.oauth", "qlgate.trust")),
    ("engine", ("qlgate.engine",)),  # planning and running scripts
    # a deployment, opened: the table generators (OpenAPI, eBay's formats), the eBay
    # emulator the workspace starts when the config wants it, and the workspace itself
    ("deployment", ("qlgate.openapi", "qlgate.ebay", "qlgate.workspace")),
    ("jobs", ("qlgate.jobs",)),  # the job backend: runs scripts through a workspace
    # the entry points: the package's public face, the CLI and its commands, the
    # gateway, the shell
    ("top", ("qlgate", "qlgate.__main__", "qlgate.cli", "qlgate.commands", "qlgate.server", "qlgate.shell")),
)


def layer_of(module: str) -> int:
    """The index in ``LAYERS`` of the longest name there that is ``module`` or a package of it."""
    best, found = -1, None
    for index, (_, names) in enumerate(LAYERS):
        for name in names:
            inside = name != "qlgate" and module.startswith(name + ".")  # the root holds only itself
            if (module == name or inside) and len(name) > best:
                best, found = len(name), index
    if found is None:
        raise LookupError(f"{module} is in no layer: add it to LAYERS in tests/test_layers.py")
    return found


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Each import of a module from a layer above its own, as a line naming both."""
    found = []
    for module in sorted(graph):
        own = layer_of(module)
        for target in sorted(graph[module]):
            if module.startswith(target + "."):
                continue  # its own package: run first by any import of it, whatever the layers
            if layer_of(target) > own:
                found.append(
                    f"{module} ({LAYERS[own][0]}) imports {target} ({LAYERS[layer_of(target)][0]}), a layer above"
                )
    return found


def full_import_graph() -> dict[str, set[str]]:
    """Every module's imports, at its top, inside functions and under TYPE_CHECKING."""
    paths = sorted(PACKAGE.rglob("*.py"))
    modules = {module_name(p) for p in paths}
    return {module_name(p): imports_of(p, modules, type_checking=True) for p in paths}


def test_every_module_has_a_layer():
    for module in full_import_graph():
        layer_of(module)


def test_no_module_imports_from_a_layer_above_its_own():
    upward = upward_imports(full_import_graph())
    assert not upward, "imports against the layers:\n  " + "\n  ".join(upward)


def test_the_check_names_the_module_and_the_import():
    graph = {"qlgate.errors": {"qlgate.engine.engine"}, "qlgate.engine.run": {"qlgate.lang.ast", "qlgate.engine"}}
    assert upward_imports(graph) == ["qlgate.errors (base) imports qlgate.engine.engine (engine), a layer above"]
    with pytest.raises(LookupError, match=r"qlgate\.nowhere"):
        layer_of("qlgate.nowhere")


def test_type_checking_imports_count_here(tmp_path: Path):
    probe = tmp_path / "probe.py"
    probe.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from qlgate.engine import run\n")
    modules = {"qlgate.engine.run", "qlgate.tables.probe"}
    assert imports_of(probe, modules, "qlgate.tables.probe", type_checking=True) == {"qlgate.engine.run"}
