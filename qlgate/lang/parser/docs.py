"""Comments right before a ``create table`` or the ``return`` become its documentation
(spec §2.2): the text ``describe`` and the route pages show.

This runs after the AST is built because the grammar ignores comments; the lexer
collected them (see ``grammar.collecting_comments``) with their positions, and a
comment belongs to the statement below it when nothing else stands in between.
"""

from __future__ import annotations

import dataclasses
import re

from lark import Token as LarkToken

from .. import ast


def attach_docs(script: ast.Script, comments: list[LarkToken]) -> ast.Script:
    """``script`` with each table's and the return's ``doc`` filled in from ``comments``."""
    if not comments:
        return script

    def doc_before(line: int, lower: int) -> str:
        # the lexer sets every position of a comment token; "or 0" only keeps the type honest
        picked = [c for c in comments if lower <= (c.end_line or 0) <= line and (c.line or 0) < line]
        picked = [c for c in picked if (c.end_line or 0) < line or (c.column or 0) < 1]
        return "\n".join(_comment_text(c) for c in picked).strip()

    items = list(script.items)
    prev_end = 0
    for i, item in enumerate(items):
        pos = getattr(item, "pos", None)
        if isinstance(item, ast.Line) and len(item.choices) == 1 and isinstance(item.choices[0], ast.CreateTable):
            table = item.choices[0]
            doc = doc_before(table.pos.line, prev_end + 1)
            if doc:
                items[i] = dataclasses.replace(item, choices=(dataclasses.replace(table, doc=doc),))
        if pos is not None:
            prev_end = pos.line + item_text_lines(item) - 1
    ret = script.ret
    if ret is not None:
        doc = doc_before(ret.pos.line, prev_end + 1)
        if doc:
            ret = dataclasses.replace(ret, doc=doc)
    return ast.Script(tuple(items), ret, script.source)


def _comment_text(token: LarkToken) -> str:
    """The words of a ``-- line`` or ``/* block */`` comment, without the markers or
    the ``*`` that starts each line of a boxed block comment."""
    text = str(token)
    if text.startswith("--"):
        return text[2:].strip()
    body = text[2:-2]
    if body.startswith("*"):
        body = body[1:]
    lines = [re.sub(r"^\s*\*?\s?", "", ln) for ln in body.splitlines()]
    return "\n".join(lines).strip()


def item_text_lines(item: ast.Item) -> int:
    """How many source lines an item's text spans (at least one)."""
    text = getattr(item, "text", "") or ""
    return max(1, text.count("\n") + 1)
