"""The hook registry (qlgate/tables/hookspecs.py) against what the engine does:
each hook's ctx holds what the registry says, a module's misspelt hook is
refused when its table loads, and docs/hooks.md is the registry's own output."""

from __future__ import annotations

import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from qlgate.tables.hookspecs import HOOKS, render
from qlgate.tables.patches import hooks_of
from tests.conftest import run

ROOT = Path(__file__).resolve().parents[2]
DOCS_COMMAND = "python3 -m qlgate.tables.hookspecs > docs/hooks.md"

# every hook this version calls, in one module that is the table's patch and its auth module
# both: each records what its ctx holds, patch_response hands the record back as the result
RECORDER = """
SEEN = {}

def _record(ctx):
    SEEN[ctx.hook] = {name: type(value).__name__ for name, value in vars(ctx).items()}

def validate_param(ctx):
    _record(ctx)
    return True

def patch_uri(ctx):
    _record(ctx)
    return ctx.uri

def auth(ctx):
    _record(ctx)
    return True

def patch_headers(ctx):
    _record(ctx)

def body_template(ctx):
    _record(ctx)

def patch_body(ctx):
    _record(ctx)
    SEEN["patch_body.body"] = sorted(vars(ctx.body))

def compute_key(ctx):
    _record(ctx)

def parse_response(ctx):
    _record(ctx)

def patch_media_type(ctx):
    _record(ctx)

def patch_status(ctx):
    _record(ctx)

async def patch_response(ctx):
    _record(ctx)
    return dict(SEEN)
"""
TABLE = "create table p on select post to '{config.base}/p?q={q}' using patch 'p.py' auth using 'p.py'"
GET_TABLE = "create table g on select get from '{config.base}/g?q={q}' using patch 'p.py' expires 60"


def module_of(source: str, name: str = "qlgate_patch_probe") -> types.ModuleType:
    module = types.ModuleType(name)
    exec(compile(source, f"{name}.py", "exec"), module.__dict__)
    return module


def test_docs_hooks_md_is_the_registrys_own_output():
    """The documented command, run as documented (a RuntimeWarning from runpy would mean
    the module was imported before it ran as a script)."""
    made = subprocess.run(
        [sys.executable, "-W", "error::RuntimeWarning", "-m", "qlgate.tables.hookspecs"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert made.returncode == 0, made.stderr
    assert made.stdout == render()
    written = (ROOT / "docs" / "hooks.md").read_text(encoding="utf-8")
    assert written == made.stdout, f"docs/hooks.md is out of date: run {DOCS_COMMAND}"


async def test_each_hooks_ctx_holds_what_the_registry_declares(upstream, engine_for):
    upstream.reply("POST", "/p", json_body={"ok": 1})
    engine = engine_for({"p.ql": TABLE, "p.py": RECORDER})
    seen: dict[str, Any] = await run(engine, 'select * from p where q = "x"')
    called = {name for name, spec in HOOKS.items() if spec.called}
    # one request meets every hook called (but compute_key: a cached GET's, below)
    assert set(seen) - {"patch_body.body"} == called - {"compute_key"}
    upstream.reply("GET", "/g", json_body={"ok": 1})
    engine = engine_for({"g.ql": GET_TABLE, "p.py": RECORDER})
    seen.update(await run(engine, 'select * from g where q = "x"'))
    for name in called:
        assert set(seen[name]) == HOOKS[name].ctx_names(), name
    assert seen["patch_body.body"] == ["content", "opaque", "type"]
    # the types the registry declares, where a value's class names them
    for name, spec in HOOKS.items():
        for attribute, declared, _ in spec.attributes() if spec.called else ():
            if declared in ("str", "int", "bytes", "MutableURI"):
                assert seen[name][attribute] == declared, (name, attribute)
            elif declared.startswith("dict["):
                assert seen[name][attribute] == "dict", (name, attribute)


async def test_a_module_of_the_spec_functions_changes_nothing(upstream, engine_for):
    """Each spec function's body is what happens without the hook."""
    names = ", ".join(HOOKS)
    upstream.reply("POST", "/p", json_body={"ok": 1})
    plain = engine_for({"plain.ql": "create table plain on select post to '{config.base}/p?q={q}'"})
    specs = engine_for(
        {
            "s.ql": TABLE.replace("table p", "table s").replace("'p.py'", "'s.py'"),
            "s.py": f"from qlgate.tables.hookspecs import {names}\n",
        }
    )
    assert await run(plain, 'select * from plain where q = "x"') == await run(specs, 'select * from s where q = "x"')
    first, second = upstream.requests
    assert (first.path, first.query, first.body) == (second.path, second.query, second.body)


@pytest.mark.parametrize(
    "name, meant",
    [
        ("patchUri", "patch_uri"),
        ("PatchStatus", "patch_status"),
        ("patchMediaType", "patch_media_type"),
        ("validateParam", "validate_param"),
        ("patch_url", "patch_uri"),
        ("patch_header", "patch_headers"),
        ("parse_responses", "parse_response"),
        ("Auth", "auth"),
    ],
)
def test_a_function_named_like_a_hook_is_warned_about_naming_the_hook(name, meant, caplog):
    with caplog.at_level("WARNING", logger="qlgate.tables.patches"):
        assert hooks_of(module_of(f"def {name}(ctx):\n    return None\n"), "shop.py") == {}
    assert f"shop.py: {name}() is not a hook; did you mean {meant}()?" in caplog.text


def test_helpers_imports_and_other_names_are_left_alone():
    module = module_of(
        "from json import loads as patch_urx\n"  # imported: not the module's own
        "LIMIT = 3\n"
        "def _patch_uri_helper(ctx): pass\n"
        "def oauth(ctx): pass\n"  # short names are words of their own
        "def patch_common(ctx): pass\n"
        "class PatchUri: pass\n"
        "async def patch_status(ctx): return None\n"
    )
    assert list(hooks_of(module, "shop.py")) == ["patch_status"]


async def test_a_table_whose_patch_misspells_a_hook_loads_with_a_warning(engine_for, caplog):
    """The language ignores a patch's other names (spec §11.1); a near miss is said aloud."""
    with caplog.at_level("WARNING", logger="qlgate.tables.patches"):
        engine = engine_for(
            {
                "b.ql": "create table b on select get from '{config.base}/b' using patch 'b.py'",
                "b.py": "def patchUri(ctx):\n    return ctx.uri\n",
            }
        )
        assert engine.tables.find("b") is not None
    assert not engine.problems
    assert "b.py: patchUri() is not a hook; did you mean patch_uri()?" in caplog.text


def test_every_hook_has_a_context_a_return_type_and_says_what_it_may_do():
    for name, spec in HOOKS.items():
        assert spec.name == name and spec.spec.__name__ == name
        assert spec.context.__name__.endswith("Context") and spec.returns and spec.doc and spec.runs
    assert [s.name for s in HOOKS.values() if s.module == "auth"] == ["auth"]
