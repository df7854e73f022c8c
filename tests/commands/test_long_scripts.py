"""A long script: ``qlgate run`` refuses one past ``gateway.maxScriptLength`` (the
gateway's limit, when the config sets it; 1 MiB else) at once, rather than parse it
for a minute (a 4 MB script took 192 s and 1.5 GB; with the planner made linear,
tests/engine/test_planner.py, still 97 s and 600 MB, nearly all of it parsing)."""

from __future__ import annotations

import json
import time

from tests.commands.helpers import piped


def test_run_refuses_a_script_past_the_limit_and_says_how_to_raise_it(tmp_path):
    script = tmp_path / "long.ql"
    script.write_text("x = 1;\n" + "-- a comment line\n" * 60_000 + "return x;")  # ~1.1 MB
    config = tmp_path / "config.json"
    for limit, length in ((None, "1,048,576"), (50_000, "50,000")):
        config.write_text(json.dumps({"gateway": {"maxScriptLength": limit}} if limit else {}))
        started = time.monotonic()
        done = piped("run", "--tables", str(tmp_path), "--config", str(config), str(script), cwd=tmp_path)
        assert done.returncode != 0 and time.monotonic() - started < 30
        error = json.loads(done.stderr.strip().splitlines()[-1])
        assert error["type"] == "ScriptTooLong" and f"up to {length}" in error["error"]
        assert "gateway.maxScriptLength" in error["error"]
    config.write_text(json.dumps({"gateway": {"maxScriptLength": 2_000_000}}))
    done = piped("run", "--tables", str(tmp_path), "--config", str(config), str(script), cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.strip() == "1", done.stderr
