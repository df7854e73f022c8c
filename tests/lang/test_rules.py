"""The transformer's own rule dispatch (qlgate/lang/parser/rules.py) reaches every rule
the parser's golden scripts use, without lark's slower lookup; and a rule's error still
comes out as a positioned QlSyntaxError."""

from pathlib import Path

import pytest
from lark import Transformer

from qlgate.errors import QlSyntaxError
from qlgate.lang.parser import parse
from qlgate.lang.parser.transformer import ToAst

GOLDENS = Path(__file__).resolve().parent / "goldens" / "parse"


def test_every_rule_of_the_goldens_is_dispatched_directly(monkeypatch):
    """A rule with a method of ours never goes through lark's lookup (one without, such
    as ``verb``, becomes lark's tree as before)."""
    lark_lookup = Transformer._call_userfunc

    def slow(self, tree, new_children=None):
        if hasattr(ToAst, tree.data):
            pytest.fail(f"rule {tree.data} went through lark's lookup")
        return lark_lookup(self, tree, new_children)

    monkeypatch.setattr(Transformer, "_call_userfunc", slow)
    scripts = sorted(GOLDENS.glob("*.ql"))
    assert len(scripts) > 20
    for path in scripts:
        parse(path.read_text(encoding="utf-8"))


def test_a_rule_error_keeps_its_position():
    with pytest.raises(QlSyntaxError) as raised:
        parse('x = 1;\nselect * from t limit 1 limit 2 where a = "b" as q')
    assert raised.value.line == 2
    with pytest.raises(QlSyntaxError) as raised:
        parse("return select * from t as a.b;")
    assert (raised.value.line, raised.value.column) == (1, 27)
