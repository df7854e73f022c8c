"""Transformer rules for what a script declares rather than runs: ``create table``
with its mappings and clauses, the ``return`` with its route, and the introspection
statements (``show tables``, ``describe``…).

Table clauses may come in any order, so the grammar accepts each any number of
times; a clause written twice in one mapping, or a verb mapped twice in one table,
is refused here with the position of the mapping or table.
"""

from __future__ import annotations

import datetime
from typing import Any

from lark import Token as LarkToken
from lark import v_args
from lark.tree import Meta

from .. import ast
from . import literals as lit
from .rules import Children, Rules

Clause = tuple[str, Any]  # (field of MappingDef or RouteSpec, value)
Target = tuple[str, str, str | None]  # (method, uri, connector operation)


@v_args(meta=True)
class DeclarationRules(Rules):
    # -- create table
    def create_table(self, meta: Meta, children: Children) -> ast.CreateTable:
        name = str(children[0])
        connector = None
        mappings = []
        for child in children[1:]:
            if isinstance(child, LarkToken):
                connector = str(child)
            else:
                mappings.append(child)
        kinds = [m.kind for m in mappings]
        for kind in set(kinds):
            if kinds.count(kind) > 1:
                raise lit.ErrorAt(f"table {name} maps '{kind}' more than once", meta.line, meta.column)
        return ast.CreateTable(name, connector, tuple(mappings), "", lit.pos(meta), self._text(meta))

    def mapping(self, meta: Meta, children: Children) -> ast.MappingDef:
        kind = str(children[0].children[0])
        method, uri, operation = children[1]
        fields: dict[str, Any] = {}
        for tag, value in children[2:]:
            if tag in fields:
                raise lit.ErrorAt(f"clause '{tag}' appears twice in the '{kind}' mapping", meta.line, meta.column)
            fields[tag] = value
        return ast.MappingDef(kind=kind, method=method, uri=uri, operation=operation, pos=lit.pos(meta), **fields)

    def t_get(self, meta: Meta, c: Children) -> Target:
        return ("get", lit.template_text(c[0]), None)

    def t_post(self, meta: Meta, c: Children) -> Target:
        return ("post", lit.template_text(c[0]), None)

    def t_put(self, meta: Meta, c: Children) -> Target:
        return ("put", lit.template_text(c[0]), None)

    def t_delete(self, meta: Meta, c: Children) -> Target:
        return ("delete", lit.template_text(c[0]), None)

    def t_patch(self, meta: Meta, c: Children) -> Target:
        return ("patch", lit.template_text(c[0]), None)

    def t_do(self, meta: Meta, c: Children) -> Target:
        return ("do", lit.template_text(c[1]), str(c[0]))

    def c_aliases(self, meta: Meta, c: Children) -> Clause:
        return ("aliases", c[0])

    def c_headers(self, meta: Meta, c: Children) -> Clause:
        return ("headers", c[0])

    def c_defaults(self, meta: Meta, c: Children) -> Clause:
        return ("defaults", c[0])

    def c_patch(self, meta: Meta, c: Children) -> Clause:
        return ("patch", lit.unquote(c[0]))

    def c_body(self, meta: Meta, c: Children) -> Clause:
        foreach = lit.unquote(c[2]) if len(c) > 2 else None
        return ("body", ast.BodySpec(lit.unquote(c[0]), lit.unquote(c[1]), foreach))

    def c_auth(self, meta: Meta, c: Children) -> Clause:
        return ("auth", lit.unquote(c[-1]))

    def c_credential(self, meta: Meta, c: Children) -> Clause:
        return ("credential", lit.unquote(c[0]))

    def c_resultset(self, meta: Meta, c: Children) -> Clause:
        return ("resultset", lit.unquote(c[0]))

    def c_expires(self, meta: Meta, c: Children) -> Clause:
        return ("expires", lit.non_negative_int(c[0], "expires"))

    def c_deprecated(self, meta: Meta, c: Children) -> Clause:
        return ("deprecated", _lifecycle("deprecated", c))

    def c_retired(self, meta: Meta, c: Children) -> Clause:
        return ("retired", _lifecycle("retired", c))

    def c_arrays(self, meta: Meta, c: Children) -> Clause:
        return ("arrays", c[0])

    def array_paths(self, meta: Meta, c: Children) -> tuple[str, ...]:
        """The paths of a ``with arrays`` clause: names joined by '.', optionally after a
        leading '..' (any depth); see ``qlgate.tables.shapes``."""
        paths = []
        for token in c:
            path = lit.unquote(token)
            steps = (path[2:] if path.startswith("..") else path).split(".")
            if not all(steps):
                raise lit.ErrorAt(
                    f"with arrays: '{path[:80]}' is not a path (names joined by '.', optionally after a leading '..')",
                    token.line,
                    token.column,
                    str(token),
                )
            paths.append(path)
        return tuple(dict.fromkeys(paths))

    def c_expect(self, meta: Meta, c: Children) -> Clause:
        return ("expect", tuple(c))

    def expect_item(self, meta: Meta, c: Children) -> tuple[str, bool]:
        return (str(c[-1]), len(c) > 1)

    def pairs(self, meta: Meta, children: Children) -> tuple[ast.Pair, ...]:
        return tuple(children)

    def pair(self, meta: Meta, children: Children) -> ast.Pair:
        name_tok, value = children
        name = lit.template_text(name_tok) if name_tok.type == "CLAUSE_TEXT" else str(name_tok)
        return ast.Pair(name, value)

    # -- introspection
    def show_tables(self, meta: Meta, c: Children) -> ast.ShowTables:
        return ast.ShowTables(lit.pos(meta), self._text(meta))

    def show_routes(self, meta: Meta, c: Children) -> ast.ShowRoutes:
        return ast.ShowRoutes(lit.pos(meta), self._text(meta))

    def describe(self, meta: Meta, c: Children) -> ast.Describe:
        return ast.Describe(str(c[-1]), lit.pos(meta), self._text(meta))

    def describe_route(self, meta: Meta, c: Children) -> ast.DescribeRoute:
        return ast.DescribeRoute(lit.unquote(c[0]), c[1], lit.pos(meta), self._text(meta))

    def method(self, meta: Meta, c: Children) -> str:
        return str(c[0])

    # -- return and routes
    def return_stmt(self, meta: Meta, children: Children) -> ast.Return:
        route = children[-1] if children and isinstance(children[-1], ast.RouteSpec) else None
        choices = tuple(children[:-1] if route else children)
        return ast.Return(choices, route, lit.pos(meta), "", self._text(meta))

    def ret_ref(self, meta: Meta, children: Children) -> ast.JsonLiteral | ast.VarRef:
        token = children[0]
        if str(token) in ("true", "false", "null"):
            return ast.JsonLiteral({"true": True, "false": False, "null": None}[str(token)], False)
        return ast.VarRef(lit.word(token, "a returned variable"), lit.pos(meta))

    def route(self, meta: Meta, children: Children) -> ast.RouteSpec:
        path = lit.unquote(children[0])
        method, optional, defaults, headers, arrays = None, False, (), (), ()
        for tag, value in children[1:]:
            if tag == "arrays":
                arrays = value
            elif tag == "method":
                method = value
            elif tag == "optional":
                optional = True
            elif tag == "defaults":
                defaults = value
            elif tag == "headers":
                headers = value
        if method is None:
            raise lit.ErrorAt("a route needs 'using method …'", meta.line, meta.column)
        return ast.RouteSpec(path, method, optional, defaults, headers, lit.pos(meta), arrays)

    def r_optional(self, meta: Meta, c: Children) -> Clause:
        return ("optional", True)

    def r_defaults(self, meta: Meta, c: Children) -> Clause:
        return ("defaults", c[0])

    def r_method(self, meta: Meta, c: Children) -> Clause:
        return ("method", c[0])

    def r_headers(self, meta: Meta, c: Children) -> Clause:
        return ("headers", c[0])

    def r_arrays(self, meta: Meta, c: Children) -> Clause:
        return ("arrays", c[0])


def _lifecycle(clause: str, c: Children) -> ast.Lifecycle:
    """A ``deprecated``/``retired`` clause's date (YYYY-MM-DD, a real day) and replacement."""
    date = lit.unquote(c[0])
    try:
        valid = len(date) == 10 and datetime.date.fromisoformat(date).isoformat() == date
    except ValueError:
        valid = False
    if not valid:
        raise lit.ErrorAt(f"{clause} '{date[:40]}': give the date as YYYY-MM-DD", c[0].line, c[0].column, str(c[0]))
    return ast.Lifecycle(date, lit.unquote(c[1]) if len(c) > 1 else None)
