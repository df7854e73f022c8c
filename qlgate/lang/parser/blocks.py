"""Transformer rules for control flow: ``if``/``else``, ``try``/``catch``/``finally``,
``throw`` and the boolean conditions they test (``a && !b || c``).

Conditions name variables only (a variable is true when it holds a value), so a
condition is a small tree of ``CondVar``, ``CondNot``, ``CondAnd`` and ``CondOr``;
a one-operand ``&&`` or ``||`` collapses to its operand.
"""

from __future__ import annotations

from lark import v_args
from lark.tree import Meta

from .. import ast
from . import literals as lit
from .rules import Children, Rules, Tagged


@v_args(meta=True)
class BlockRules(Rules):
    def if_block(self, meta: Meta, children: Children) -> ast.IfBlock:
        cond = children[0]
        orelse = None
        body = children[1:]
        if body and isinstance(body[-1], Tagged) and body[-1].tag == "else":
            orelse = body[-1].value
            body = body[:-1]
        return ast.IfBlock(cond, tuple(body), orelse, lit.pos(meta))

    def else_block(self, meta: Meta, children: Children) -> Tagged:
        return Tagged("else", tuple(children))

    def try_block(self, meta: Meta, children: Children) -> ast.TryBlock:
        body, catches, final = [], [], None
        for child in children:
            if isinstance(child, ast.Catch):
                catches.append(child)
            elif isinstance(child, Tagged):
                final = child.value
            else:
                body.append(child)
        return ast.TryBlock(tuple(body), tuple(catches), final, lit.pos(meta))

    def catch(self, meta: Meta, children: Children) -> ast.Catch:
        return ast.Catch(children[0], tuple(children[1:]), lit.pos(meta))

    def finally_block(self, meta: Meta, children: Children) -> Tagged:
        return Tagged("finally", tuple(children))

    def throw(self, meta: Meta, children: Children) -> ast.Throw:
        return ast.Throw(lit.word(children[0], "a thrown flag"), lit.pos(meta))

    def cond_or(self, meta: Meta, children: Children) -> ast.Cond:
        return children[0] if len(children) == 1 else ast.CondOr(tuple(children))

    def cond_and(self, meta: Meta, children: Children) -> ast.Cond:
        return children[0] if len(children) == 1 else ast.CondAnd(tuple(children))

    def cond_not(self, meta: Meta, children: Children) -> ast.CondNot:
        return ast.CondNot(children[0])

    def cond_var(self, meta: Meta, children: Children) -> ast.CondVar:
        return ast.CondVar(lit.word(children[0], "a condition variable"))
