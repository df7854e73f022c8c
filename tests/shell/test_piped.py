"""``qlgate shell`` with statements piped on stdin: no prompt, each result as
JSON on stdout, variables kept from one statement to the next, and the first
error ends it as ``qlgate run`` ends — here against the repository's own eBay
tables and the built-in emulator."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def shell(stdin: str, *args: str, cwd: Path = ROOT, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "qlgate", "shell", *args],
        input=stdin,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=90,
    )


def test_piped_statements_share_their_variables_against_the_emulator(tmp_path):
    done = shell(
        'hits = select itemId, title from browse.search where q = "{kw}" limit 2;\n'
        ".timing on\n"
        "first = select title from ebay.buy.browse.getItem\n"
        '  where item_id = "{hits[0][0]}";\n'
        'return {"kw": "{kw}", "same": "{first[0]}", "n": 2};\n'
        ".vars\n",
        "--var",
        "kw=guitar",
        env={"XDG_CACHE_HOME": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    hits = json.loads(lines[0])
    assert len(hits) == 2 and all("uitar" in title for _, title in hits)
    assert lines[1] == "timing is on"
    assert json.loads(lines[2]) == [hits[0][1]]  # the item's own title, found by the id the search gave
    assert json.loads(lines[3]) == {"kw": "guitar", "same": hits[0][1], "n": 2}
    assert lines[4].startswith("first = ") and lines[5].startswith("hits = [[") and lines[6] == 'kw = "guitar"'
    assert "1 upstream call(s)" in done.stderr  # .timing on: the getItem call, after the search
    assert "Traceback" not in done.stderr


def test_the_first_error_ends_piped_input_like_qlgate_run(tmp_path):
    done = shell(
        "a = 1;\n\n-- the next one fails\nselect *\n  from nosuch.table;\nreturn 2;\n",
        env={"XDG_CACHE_HOME": str(tmp_path)},
    )
    assert done.returncode == 1
    assert done.stdout == "1\n"  # the statement after the error never ran
    error = json.loads(done.stderr.strip().splitlines()[-1])
    assert error["error"] == "No such table nosuch.table" and error["line"] == 5  # the line in the input
    assert "Traceback" not in done.stderr


def test_a_syntax_error_and_a_bad_dot_command_in_piped_input(tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path)}
    broken = shell("return 1;\nreturn select * frm x;\n", env=env)
    assert broken.returncode == 1 and broken.stdout == "1\n"
    assert "2:17: unexpected 'frm'" in broken.stderr and "^" in broken.stderr
    assert json.loads(broken.stderr.strip().splitlines()[-1])["type"] == "QlSyntaxError"
    unknown = shell(".timing maybe\nreturn 1;\n", env=env)
    assert unknown.returncode != 0 and unknown.stdout == ""
    assert ".timing takes on or off" in json.loads(unknown.stderr.strip().splitlines()[-1])["error"]


def test_the_last_semicolon_is_optional_and_table_output_is_asked_for(tmp_path):
    done = shell(
        'rows = [{"id": 1, "name": "a"}, {"id": 2, "tags": ["x"]}];\nreturn rows',
        "--output",  # the option's old name, kept
        "table",
        env={"XDG_CACHE_HOME": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr
    assert (
        done.stdout.splitlines()
        == [
            "id  name  tags",
            "--  ----  -----",
            "1   a",
            '2         ["x"]',
        ]
        * 2
    )


def test_the_shell_prints_in_the_formats_of_run_through_the_same_formatter(tmp_path):
    """Each format as qlgate run --format prints the same value, byte for byte."""
    value = '[{"id": 1, "name": "a"}, {"id": 2, "tags": ["x"]}]'
    for fmt in ("json", "pretty", "table", "ndjson"):
        done = shell(f"return {value};", "--format", fmt, env={"XDG_CACHE_HOME": str(tmp_path)})
        ran = subprocess.run(
            [sys.executable, "-m", "qlgate", "run", "-e", f"return {value};", "--format", fmt],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0 and done.stdout == ran.stdout, fmt
    switched = shell(f".output ndjson\nreturn {value};\n.output pretti\n", env={"XDG_CACHE_HOME": str(tmp_path)})
    assert switched.stdout.splitlines()[1:] == ['{"id":1,"name":"a"}', '{"id":2,"tags":["x"]}']
    assert "did you mean pretty?" in switched.stderr


def test_a_mistyped_dot_command_and_table_name_get_the_one_meant(tmp_path):
    env = {"XDG_CACHE_HOME": str(tmp_path)}
    command = json.loads(shell(".descibe browse.search\n", env=env).stderr.strip().splitlines()[-1])
    assert command["error"].startswith("unknown command .descibe; did you mean .describe?")
    # "search" ends several tables: the misspelt ending names them in full
    table = json.loads(shell(".describe serch\n", env=env).stderr.strip().splitlines()[-1])
    assert "ebay.buy.browse.search" in table["suggestions"]
