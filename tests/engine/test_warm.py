"""A run's first upstream call and first answer import nothing (qlgate/engine/warm.py):
what they need is imported when a script with a table statement is compiled, and a
script that calls nothing imports none of it. Each case runs in a fresh interpreter,
since this one has imported everything long ago."""

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

from qlgate.engine.warm import CALL_PATH

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import asyncio, json, sys
from qlgate.engine.engine import Engine

async def main(base, script):
    engine = Engine(config={"base": base})
    compiled = engine.compile(script)
    after_compile = sorted(sys.modules)
    run = [] if base is None else None
    if base is not None:
        before = set(sys.modules)
        await engine.run_compiled(compiled)
        run = sorted(set(sys.modules) - before)
    await engine.close()
    print(json.dumps({"after_compile": after_compile, "during_run": run}))

asyncio.run(main(*json.loads(sys.argv[1])))
"""


def probe(base: str | None, script: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps([base, script])], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_script_that_calls_nothing_imports_no_call_path():
    found = probe(None, 'x = {"a": 1}; return x;')
    assert not set(CALL_PATH) & set(found["after_compile"])


def test_compiling_a_call_imports_the_call_path():
    found = probe(None, 'return select * from t where q = "x";')
    assert set(CALL_PATH) <= set(found["after_compile"])


async def test_the_first_call_and_answer_import_nothing(upstream):
    upstream.reply("GET", "/item", json_body={"id": 7})
    script = "create table i on select get from '{config.base}/item?id={id}'\nreturn select * from i where id = \"7\";"
    found = await asyncio.to_thread(probe, upstream.base, script)
    assert found["during_run"] == []


FREEZE = """
import gc, sys, tempfile
from qlgate.engine.engine import Engine
engine = Engine(tables=tempfile.mkdtemp(), config={}, lazy_tables=sys.argv[1] == "lazy")
engine.compile('return select * from t where q = "x";')
print(gc.get_freeze_count())
"""

# qlgate run, in-process, then the freeze count: its command freezes before the run
RUN_FREEZE = """
import contextlib, gc, io, sys
from qlgate.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    main(["run", "--tables", sys.argv[1], "--config", sys.argv[2], "-e", "return 1;"])
print(gc.get_freeze_count())
"""


def frozen(snippet: str, *args: str) -> int:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", snippet, *args], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return int(done.stdout.strip().splitlines()[-1])


def test_qlgate_run_freezes_its_heap_before_the_run_and_an_engine_never_does(tmp_path):
    """qlgate run freezes what start-up built, so no full collection walks it during
    the run; an engine itself leaves the heap of the process that embeds it alone,
    lazy tables (``qlgate.run``, the shell) or not."""
    (tmp_path / "tables").mkdir()
    (tmp_path / "config.json").write_text("{}")
    assert frozen(RUN_FREEZE, str(tmp_path / "tables"), str(tmp_path / "config.json")) > 10_000
    assert frozen(FREEZE, "lazy") == 0
    assert frozen(FREEZE, "eager") == 0
