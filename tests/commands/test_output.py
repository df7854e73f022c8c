"""``qlgate run`` output: the script from stdin, ``--format`` when piped, and a
reader that goes away early (``| head -1``) ending the command quietly."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from qlgate.commands.output import chosen_format, colour_json, plain_table, progress_line, write_value

from .helpers import environment, piped

ROWS = 'return [{"id": 1, "title": "camera", "tags": ["a"]}, {"id": 2, "price": {"value": "9.99"}}];'


def test_a_script_from_stdin():
    proc = piped("run", "-", "--var", "n=5", stdin='return {"n": "{n}", "from": "stdin"};')
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == {"n": 5, "from": "stdin"}


def test_a_syntax_error_in_a_script_from_stdin_names_stdin():
    proc = piped("run", "-", stdin="select * frm t")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert json.loads(proc.stderr.splitlines()[-1])["type"] == "QlSyntaxError"


def test_piped_output_is_compact_json_on_one_line():
    proc = piped("run", "-e", ROWS)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("\n") == 1 and json.loads(proc.stdout)[1]["price"] == {"value": "9.99"}


def test_each_format_piped():
    ndjson = piped("run", "-e", ROWS, "--format", "ndjson").stdout.splitlines()
    assert [json.loads(line)["id"] for line in ndjson] == [1, 2]
    pretty = piped("run", "-e", ROWS, "--format", "pretty").stdout
    assert pretty.startswith('[\n  {\n    "id": 1,') and "\x1b[" not in pretty  # no colour into a pipe
    table = piped("run", "-e", ROWS, "--format", "table").stdout.splitlines()
    assert table[0].split() == ["id", "title", "tags", "price"]
    assert table[2].split() == ["1", "camera", '["a"]'] and table[3].split() == ["2", '{"value":"9.99"}']
    assert "\x1b[" not in "".join(table)
    # a value that is no table is shown as pretty JSON; a scalar in ndjson is one line
    assert piped("run", "-e", "return 7;", "--format", "table").stdout == "7\n"
    assert piped("run", "-e", "return [];", "--format", "ndjson").stdout == ""


def test_a_reader_that_goes_away_ends_the_command_quietly(tmp_path):
    script = tmp_path / "many.ql"
    script.write_text("return " + json.dumps([{"i": i, "text": "x" * 200} for i in range(3000)]) + ";")
    shell = f"{sys.executable} -m qlgate run {script} --format ndjson | head -1; exit ${{PIPESTATUS[0]}}"
    proc = subprocess.run(["bash", "-c", shell], env=environment(), capture_output=True, text=True, timeout=60)
    assert json.loads(proc.stdout) == {"i": 0, "text": "x" * 200}
    assert proc.stderr == ""  # no "internal error: BrokenPipeError", no "Exception ignored"
    assert proc.returncode == 141


def test_formats_chosen_for_the_reader():
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    rows = [{"a": 1}]
    assert chosen_format(None, rows, io.StringIO()) == "json"
    assert chosen_format(None, rows, Terminal()) == "table"
    assert chosen_format(None, {"a": 1}, Terminal()) == "pretty"
    assert chosen_format("ndjson", rows, Terminal()) == "ndjson"


@pytest.mark.parametrize(
    "value, expected",
    [
        ({"k": "v", "n": None}, ["key  value", "---  -----", "k    v", "n"]),
        (["x", 2], ["value", "-----", "x", "2"]),
    ],
)
def test_tables_of_an_object_and_of_scalars(value, expected):
    out = io.StringIO()
    write_value(value, "table", out)
    assert out.getvalue().splitlines() == expected


def test_a_cell_with_a_line_break_stays_on_its_row():
    assert plain_table(["a"], [["one\ntwo"]]).splitlines() == ["a", "-------", "one two"]


def test_colours_mark_keys_strings_numbers_and_words():
    painted = colour_json('{"k": "v: \\"x\\"", "n": -1.5e3, "b": true}')
    assert '\x1b[1;34m"k"\x1b[0m' in painted and '\x1b[32m"v: \\"x\\""\x1b[0m' in painted
    assert "\x1b[36m-1.5e3\x1b[0m" in painted and "\x1b[35mtrue\x1b[0m" in painted


def test_the_progress_line_counts_each_state():
    line = progress_line(["done", "running", "queued", "failed"], 12.4, width=8)
    assert line == "[████░░░░] 2/4 ended · 1 queued · 1 running · 1 done · 1 failed · 12s"
