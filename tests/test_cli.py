"""The command-line contract: JSON on stdout and exit 0, or a JSON error on
stderr and a non-zero exit; check/tables/describe for table authors."""

import json
import subprocess
import sys
from pathlib import Path

import pytest


def qlgate(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "qlgate", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=60)


def error_of(proc: subprocess.CompletedProcess) -> dict:
    return json.loads(proc.stderr.strip().splitlines()[-1])


def test_run_a_file_with_vars(tmp_path):
    script = tmp_path / "s.ql"
    script.write_text('return {"n": "{n}", "s": "{s}", "o": "{o.k}"}')
    proc = qlgate("run", str(script), "--var", "n=5", "--var", "s=plain text", "--var", 'o={"k": [1]}')
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"n": 5, "s": "plain text", "o": [1]}


def test_inline_script_and_syntax_error_with_caret():
    proc = qlgate("run", "-e", "select * frm t")
    assert proc.returncode == 1
    assert "^" in proc.stderr
    error = error_of(proc)
    assert error["type"] == "QlSyntaxError" and (error["line"], error["column"]) == (1, 10)


@pytest.mark.parametrize("args, message", [
    (["run", "missing.ql"], "cannot read script"),
    (["run", "-e", "return 1", "--var", "bad"], "bad --var"),
    (["run", "-e", "return 1", "--config", "nope.json"], "cannot read config"),
    (["run", "-e", "select * from nowhere"], "No such table nowhere"),
])
def test_bad_input_is_a_json_error_not_a_traceback(tmp_path, args, message):
    proc = qlgate(*args, cwd=tmp_path)
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr
    assert message in error_of(proc)["error"]


def test_diagnostics_go_to_stderr(tmp_path):
    proc = qlgate("run", "-e", "return 1", "--diagnostics")
    assert proc.stdout.strip() == "1" and "0 upstream call(s)" in proc.stderr


def test_check_tables_and_describe(tmp_path):
    tables = tmp_path / "tables"
    (tables / "shop").mkdir(parents=True)
    (tables / "shop" / "search.ql").write_text(
        "-- Keyword search.\ncreate table shop.search on select get from '{config.base}/s?q={^q}&n={n}' "
        "using defaults n = 10 using headers 'X-Key' = '{config.key}'")
    (tables / "bad.ql").write_text("create table bad on select get frm 'x'")
    config = tmp_path / "c.json"
    config.write_text(json.dumps({"base": "http://127.0.0.1:1", "key": "${QLGATE_TEST_KEY}"}))
    proc = qlgate("check", "--tables", str(tables))
    assert proc.returncode == 1
    assert proc.stdout.strip() == f"{tables / 'bad.ql'}:1:32: unexpected 'frm'; expected 'from'"
    listing = qlgate("tables", "--tables", str(tables), "--config", str(config))
    assert listing.stdout.splitlines() == ["shop.search  (select)"]
    described = qlgate("describe", "search", "--tables", str(tables), "--config", str(config))
    assert "on select: GET http://127.0.0.1:1/s?q={^q}&n={n}" in described.stdout
    assert "required: q" in described.stdout and "optional: n" in described.stdout
    (tables / "bad.ql").unlink()
    assert qlgate("check", "--tables", str(tables)).returncode == 0
