"""The syntax-tree walk (``qlgate/lang/walk.py``) that the planner, the trust check,
the engine's write detection and ``Run._skip`` share. (Its natural home is
``tests/lang``; it sits here while that folder is another engineer's.)"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any

from qlgate.lang import ast
from qlgate.lang.parser import parse
from qlgate.lang.paths import Path
from qlgate.lang.templates import Template, parse_template
from qlgate.lang.walk import children, walk

SCRIPT = """
u = require("m.py");
create table t on select get from "{config.base}/{^id}" using headers 'X-K' = "{k}";
a = select x.y as y, u.f(x.z, "{lit}") as z from t where id in ("1", "{two}") and q = r.s;
b = {"list": ["{a}", {"deep": "{a.y}"}], "n": 1};
insert "{b}" into t;
if (a && !b) { c = update t with "{a}" } else { try { throw (e) } catch (e) { d = 1 } finally { f = 2 } }
return {"c": "{c}"} via route '/c/{id}' using method get using headers 'X-C' = "{c}";
"""


def every_template(value: Any, found: list) -> None:
    """Brute force, for comparison: every Template anywhere in the tree, through every
    field of every dataclass whatever its declared type."""
    if isinstance(value, Template):
        found.append(value)
    elif isinstance(value, (tuple, list)):
        for item in value:
            every_template(item, found)
    elif isinstance(value, dict):
        for item in value.values():
            every_template(item, found)
    elif is_dataclass(value) and not isinstance(value, type):
        for f in fields(value):
            every_template(getattr(value, f.name), found)


def test_the_walk_misses_no_template_of_quoted_text():
    script = parse(SCRIPT)
    brute: list = []
    every_template(script, brute)
    walked = [node for node in walk(script) if isinstance(node, Template)]
    assert sorted(map(id, walked)) == sorted(map(id, brute))
    assert {t.raw for t in walked} >= {"{lit}", "{two}", "{a.y}", "{b}", "{c}"}


def test_nodes_come_before_what_is_under_them_and_positions_and_paths_are_not_nodes():
    script = parse('a = select x from t where k = "{v}"')
    kinds = [type(node).__name__ for node in walk(script)]
    assert kinds == ["Script", "Line", "Select", "Column", "Source", "EqCondition", "TextOperand", "Template", "Tuning"]
    assert not any(isinstance(node, (ast.Pos, Path)) for node in walk(script))


def test_into_false_yields_a_node_but_not_what_is_under_it():
    script = parse('a = 1; if (a) { b = "{a}" } c = "{b}"')
    lines = [node for node in walk(script, into=lambda n: not isinstance(n, ast.Line)) if isinstance(node, Template)]
    assert lines == []
    assert [n.target for n in walk(script.items) if isinstance(n, ast.Line)] == ["a", "b", "c"]


def test_children_are_the_nodes_directly_below():
    (line,) = parse('a = select x from t where k = "{v}" and m = 1').items
    (select,) = line.choices
    assert [type(c).__name__ for c in children(select)] == ["Column", "Source", "EqCondition", "EqCondition", "Tuning"]
    assert children("text") == []


def test_a_deeply_nested_json_literal_does_not_exhaust_the_stack():
    value: Any = parse_template("{x}")
    for _ in range(20_000):
        value = [value]
    literal = ast.JsonLiteral(value, True)
    assert [type(node).__name__ for node in walk(literal)] == ["JsonLiteral", "Template"]
