"""At a terminal (a pty): a list of objects is a table, anything else indented,
coloured JSON — unless ``--format`` or ``NO_COLOR`` says otherwise."""

from __future__ import annotations

import json

from .helpers import at_terminal

ROWS = 'return [{"id": 1, "title": "[bold]camera[/bold]"}, {"id": 2, "title": "lens"}];'


def test_a_list_of_objects_is_a_table_at_a_terminal():
    status, out = at_terminal("run", "-e", ROWS)
    assert status == 0, out
    lines = out.splitlines()
    assert any(line.startswith("┏") for line in lines)  # drawn by rich, not JSON
    header = next(line for line in lines if "id" in line and "title" in line)
    assert header.startswith("┃")
    # a value's [brackets] are shown as written, not taken for rich markup
    assert any("│ 1  │ [bold]camera[/bold] │" in line for line in lines), out


def test_anything_else_is_indented_coloured_json_at_a_terminal():
    status, out = at_terminal("run", "-e", 'return {"n": 1, "s": "x"};')
    assert status == 0, out
    assert '\x1b[1;34m"n"\x1b[0m: \x1b[36m1\x1b[0m' in out and out.startswith("{\r\n  ")
    status, plain = at_terminal("run", "-e", 'return {"n": 1, "s": "x"};', NO_COLOR="1")
    assert "\x1b[" not in plain and json.loads(plain) == {"n": 1, "s": "x"}


def test_format_json_at_a_terminal_is_compact():
    status, out = at_terminal("run", "-e", ROWS, "--format", "json")
    assert status == 0 and out.strip() == json.dumps(
        [{"id": 1, "title": "[bold]camera[/bold]"}, {"id": 2, "title": "lens"}], separators=(",", ":")
    )
