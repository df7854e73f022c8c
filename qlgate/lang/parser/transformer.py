"""Lark's parse tree → the AST of ``qlgate.lang.ast``: the script's structure (lines,
assignments, the return) here, every other rule in the mixin of its grammar section.

Nothing lark-shaped leaves this transformer: quoted text is already a ``Template``,
a path a ``Path``, a number an ``int`` or ``float``.
"""

from __future__ import annotations

from lark import v_args
from lark.tree import Meta

from .. import ast
from . import literals as lit
from .blocks import BlockRules
from .declarations import DeclarationRules
from .queries import QueryRules
from .rules import Children
from .values import ValueRules


@v_args(meta=True)
class ToAst(QueryRules, DeclarationRules, BlockRules, ValueRules):
    """``ToAst(source).transform(tree)`` → ``ast.Script``; one instance per parse."""

    def start(self, meta: Meta, children: Children) -> ast.Script:
        ret = children[-1] if children and isinstance(children[-1], ast.Return) else None
        items = tuple(children[:-1] if ret else children)
        return ast.Script(items, ret, self._source)

    def line(self, meta: Meta, children: Children) -> ast.Line:
        target = None
        if len(children) == 2:
            target = lit.word(children[0], "an assignment target")
        return ast.Line(target, tuple(children[-1]), lit.pos(meta), self._text(meta))

    def rhs(self, meta: Meta, children: Children) -> Children:
        return children
