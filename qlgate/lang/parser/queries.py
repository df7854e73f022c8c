"""Transformer rules for the statements that call tables: ``select`` (columns, sources,
where, limit, offset, tuning) and the writes ``insert``, ``update``, ``delete``.

The grammar lets optional clauses come in any combination; the rules here check
what it cannot, such as an insert's column count matching its values.
"""

from __future__ import annotations

from lark import Token as LarkToken
from lark import v_args
from lark.tree import Meta

from .. import ast
from . import literals as lit
from .rules import Children, Rules, Tagged


@v_args(meta=True)
class QueryRules(Rules):
    # -- select
    def select(self, meta: Meta, children: Children) -> ast.Select:
        columns, sources, where, limit, offset, tuning = None, [], (), None, None, ast.Tuning()
        expires: int | None = None
        for child in children:
            if isinstance(child, ast.Source):
                sources.append(child)
            elif isinstance(child, Tagged):
                if child.tag == "columns":
                    columns = child.value
                elif child.tag == "where":
                    where = child.value
                elif child.tag == "limit":
                    limit = child.value
                elif child.tag == "offset":
                    offset = child.value
                elif child.tag == "expires":
                    expires = child.value
            elif isinstance(child, ast.Tuning):
                tuning = child
        return ast.Select(
            columns, tuple(sources), where, limit, offset, tuning, lit.pos(meta), self._text(meta), expires
        )

    def select_expires(self, meta: Meta, children: Children) -> Tagged:
        return Tagged("expires", lit.non_negative_int(children[0], "expires"))

    def star(self, meta: Meta, children: Children) -> Tagged:
        return Tagged("columns", None)

    def columns(self, meta: Meta, children: Children) -> Tagged:
        return Tagged("columns", tuple(children))

    def column(self, meta: Meta, children: Children) -> ast.Column:
        first = children[0]
        alias = lit.word(children[1], "a column alias") if len(children) > 1 else None
        if isinstance(first, ast.UdfCall):
            return ast.Column(None, first, alias)
        return ast.Column(lit.path(first), None, alias)

    def source(self, meta: Meta, children: Children) -> ast.Source:
        alias = lit.word(children[1], "a source alias") if len(children) > 1 else None
        name = children[0]
        return ast.Source(str(name), alias, ast.Pos(name.line, name.column))

    def where(self, meta: Meta, children: Children) -> Tagged:
        return Tagged("where", tuple(children))

    def cond_eq(self, meta: Meta, children: Children) -> ast.EqCondition:
        return ast.EqCondition(lit.path(children[0]), children[1])

    def cond_in_operand(self, meta: Meta, children: Children) -> ast.EqCondition:
        return ast.EqCondition(lit.path(children[0]), children[1])

    def cond_in_select(self, meta: Meta, children: Children) -> ast.InSelectCondition:
        return ast.InSelectCondition(lit.path(children[0]), children[1])

    def cond_in_list(self, meta: Meta, children: Children) -> ast.InListCondition:
        return ast.InListCondition(lit.path(children[0]), tuple(children[1]))

    def cond_udf(self, meta: Meta, children: Children) -> ast.UdfCondition:
        return ast.UdfCondition(children[0])

    def operand(self, meta: Meta, children: Children) -> ast.Operand:
        return lit.operand(children[0])

    def list(self, meta: Meta, children: Children) -> Children:
        return children

    def limit(self, meta: Meta, children: Children) -> Tagged:
        return Tagged("limit", lit.non_negative_int(children[0], "limit"))

    def offset(self, meta: Meta, children: Children) -> Tagged:
        return Tagged("offset", lit.non_negative_int(children[0], "offset"))

    def tuning(self, meta: Meta, children: Children) -> ast.Tuning:
        values = {c.tag: c.value for c in children}
        return ast.Tuning(values.get("timeout"), values.get("min_delay"), values.get("max_delay"))

    def timeout(self, meta: Meta, children: Children) -> Tagged:
        return Tagged("timeout", lit.non_negative_int(children[1], "timeout"))

    def min_delay(self, meta: Meta, children: Children) -> Tagged:
        return Tagged("min_delay", lit.non_negative_int(children[1], "minDelay"))

    def max_delay(self, meta: Meta, children: Children) -> Tagged:
        return Tagged("max_delay", lit.non_negative_int(children[1], "maxDelay"))

    # -- writes
    def insert(self, meta: Meta, children: Children) -> ast.Insert:
        object_text, source, columns, values, parts, tuning = None, None, None, None, None, ast.Tuning()
        for child in children:
            if isinstance(child, LarkToken):
                object_text = lit.template(child)
            elif isinstance(child, ast.Source):
                source = child
            elif isinstance(child, ast.Tuning):
                tuning = child
            elif child.tag == "columns":
                columns = child.value
            elif child.tag == "values":
                values = child.value
            elif child.tag == "parts":
                parts = child.value
        if object_text is not None and (columns or values):
            raise lit.ErrorAt('insert "{object}" into … takes no columns or values', meta.line, meta.column)
        if columns is not None:
            if values is None:
                raise lit.ErrorAt("insert with columns needs values (…)", meta.line, meta.column)
            if len(columns) != len(values):
                raise lit.ErrorAt(f"insert has {len(columns)} columns but {len(values)} values", meta.line, meta.column)
        if columns is None and values is not None and len(values) != 1:
            raise lit.ErrorAt("an opaque insert takes exactly one value", meta.line, meta.column)
        assert source is not None  # the grammar requires "into <table>"
        return ast.Insert(source, object_text, columns, values, parts, tuning, lit.pos(meta), self._text(meta))

    def insert_columns(self, meta: Meta, children: Children) -> Tagged:
        return Tagged("columns", tuple(str(c) for c in children))

    def insert_values(self, meta: Meta, children: Children) -> Tagged:
        return Tagged("values", tuple(children[0]))

    def insert_parts(self, meta: Meta, children: Children) -> Tagged:
        return Tagged("parts", tuple(children[0]))

    def update(self, meta: Meta, children: Children) -> ast.Update:
        source, text, tuning = children
        return ast.Update(source, lit.template(text), tuning, lit.pos(meta), self._text(meta))

    def delete(self, meta: Meta, children: Children) -> ast.Delete:
        source = children[0]
        where = next((c.value for c in children if isinstance(c, Tagged)), ())
        return ast.Delete(source, where, children[-1], lit.pos(meta), self._text(meta))
