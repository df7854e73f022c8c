"""The AST dump behind the parser goldens: one node per line, fields indented under
it, plain nodes on one line, several-line text behind a gutter."""

from __future__ import annotations

import subprocess
import sys

from qlgate.lang import ast
from qlgate.lang.dump import dump
from qlgate.lang.parser import parse
from qlgate.lang.templates import parse_template


def test_plain_nodes_fit_on_one_line_and_others_list_their_fields():
    node = ast.Pair("q", ast.TextOperand(parse_template("{^q}s")))
    assert dump(node) == (
        "Pair\n"
        "  name: 'q'\n"
        "  value: TextOperand\n"
        "    template: Template '{^q}s'\n"
        "      Token '{^q}' at 0, required, body 'q'\n"
    )
    assert dump(ast.Tuning(5)) == "Tuning(timeout=5, min_delay=None, max_delay=None)\n"


def test_text_of_several_lines_is_shown_line_by_line():
    assert dump(ast.ShowTables(ast.Pos(1, 1), "show\n\ntables")) == (
        "ShowTables\n  pos: 1:1\n  text:\n    | show\n    |\n    | tables\n"
    )


def test_json_without_templates_is_json_and_with_them_a_tree():
    (line,) = parse('x = {"a": [1, 2.0, null], "b": "{y}"}').items
    assert dump(line.choices[0]).splitlines()[:4] == [
        "JsonLiteral",
        "  value:",
        "    'a': [1, 2.0, null]",
        "    'b': Template '{y}'",
    ]


def test_the_same_script_always_dumps_the_same():
    script = "select a[?('@.p > 1')].b from t where k in ('1', 2)"
    assert dump(parse(script)) == dump(parse(script))


def test_the_module_dumps_a_script_file(tmp_path):
    (tmp_path / "s.ql").write_text("return 1", encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "qlgate.lang.dump", str(tmp_path / "s.ql")], capture_output=True, text=True, check=True
    ).stdout
    assert out.startswith("Script\n  items: ()\n  ret: Return\n")
