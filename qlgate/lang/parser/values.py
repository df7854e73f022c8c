"""Transformer rules for values written in a script: JSON literals (whose strings may
hold interpolation tokens), ``require(…)`` and UDF calls ``module.function(…)``.

A JSON literal remembers whether any string in it is a template (``templated``), so
the engine can hand out a constant literal without walking it on every run.
"""

from __future__ import annotations

from typing import Any

from lark import v_args
from lark.tree import Meta

from .. import ast
from ..templates import Template
from . import literals as lit
from .rules import Children, Rules


@v_args(meta=True)
class ValueRules(Rules):
    # -- UDFs
    def udf_call(self, meta: Meta, children: Children) -> ast.UdfCall | ast.Require:
        name = str(children[0])
        args = tuple(children[1:])
        if name == "require":
            value = args[0].value if len(args) == 1 and isinstance(args[0], ast.JsonLiteral) else None
            if isinstance(value, Template) and value.raw.startswith("javascript:"):
                # a JavaScript module written inline: its braces are code, not interpolation
                return ast.Require(value.raw, lit.pos(meta))
            if len(args) != 1 or not isinstance(args[0], ast.JsonLiteral) or not isinstance(args[0].value, str):
                raise lit.ErrorAt("require takes one quoted module name", meta.line, meta.column)
            return ast.Require(args[0].value, lit.pos(meta))
        if "." not in name:
            raise lit.ErrorAt(
                f"'{name}(…)' is not a UDF call: write module.function(…) with a module bound by require()",
                meta.line,
                meta.column,
                name,
            )
        module, function = name.rsplit(".", 1)
        return ast.UdfCall(module, function, args, lit.pos(meta))

    def udf_path_arg(self, meta: Meta, children: Children) -> ast.Path:
        return lit.path(children[0])

    # -- JSON
    def string(self, meta: Meta, children: Children) -> ast.JsonLiteral:
        value = lit.json_string(children[0])
        template = lit.template(children[0], value)
        if template.tokens:
            return ast.JsonLiteral(template, True)
        return ast.JsonLiteral(value, False)

    def number(self, meta: Meta, children: Children) -> ast.JsonLiteral:
        return ast.JsonLiteral(lit.number(children[0]), False)

    def true(self, meta: Meta, c: Children) -> ast.JsonLiteral:
        return ast.JsonLiteral(True, False)

    def false(self, meta: Meta, c: Children) -> ast.JsonLiteral:
        return ast.JsonLiteral(False, False)

    def null(self, meta: Meta, c: Children) -> ast.JsonLiteral:
        return ast.JsonLiteral(None, False)

    def object(self, meta: Meta, children: Children) -> ast.JsonLiteral:
        out: dict[str, Any] = {}
        templated = False
        for key, value in children:
            out[key] = value.value
            templated = templated or value.templated
        return ast.JsonLiteral(out, templated)

    def member(self, meta: Meta, children: Children) -> tuple[str, ast.JsonLiteral]:
        return (lit.json_string(children[0]), children[1])

    def array(self, meta: Meta, children: Children) -> ast.JsonLiteral:
        return ast.JsonLiteral([c.value for c in children], any(c.templated for c in children))
