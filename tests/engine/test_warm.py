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


def frozen(mode: str) -> int:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", FREEZE, mode], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return int(done.stdout)


def test_a_one_shot_process_freezes_its_heap_before_the_run():
    """qlgate run's engine (lazy tables) freezes what start-up built, so no full
    collection walks it during the run; a long-lived engine leaves the heap alone."""
    assert frozen("lazy") > 10_000
    assert frozen("eager") == 0
