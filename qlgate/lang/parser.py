"""Script text → AST. The only module that imports lark.

Errors come out as ``QlSyntaxError`` with line, column, the offending text and
what the grammar expected there; nothing else escapes ``parse``.
"""

from __future__ import annotations

import json
import math
import re
import threading
from pathlib import Path as FsPath
from typing import Any

from lark import Lark, Token as LarkToken, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from ..errors import QlSyntaxError
from . import ast
from .filters import FilterSyntaxError
from .paths import PathSyntaxError, parse_path
from .templates import Template, TemplateSyntaxError, parse_template

_GRAMMAR = (FsPath(__file__).with_name("grammar.lark")).read_text(encoding="utf-8")
_comments = threading.local()


def _collect_comment(token: LarkToken) -> LarkToken:
    sink = getattr(_comments, "sink", None)
    if sink is not None:
        sink.append(token)
    return token


_PARSER = Lark(
    _GRAMMAR,
    parser="lalr",
    lexer="contextual",
    propagate_positions=True,
    maybe_placeholders=False,
    cache=True,
    lexer_callbacks={"LINE_COMMENT": _collect_comment, "BLOCK_COMMENT": _collect_comment},
)

# Readable names for terminals in "expected ..." messages.
_TERMINAL_NAMES = {
    "PATH": "a name", "QUOTED_PATH": "a quoted column name", "CLAUSE_TEXT": "quoted text",
    "JSON_STRING": "a string", "NUMBER": "a number", "SEMICOLON": "';'", "EQUAL": "'='",
    "LPAR": "'('", "RPAR": "')'", "LBRACE": "'{'", "RBRACE": "'}'", "LSQB": "'['", "RSQB": "']'",
    "COMMA": "','", "COLON": "':'", "STAR": "'*'", "_OR": "'||'", "OR": "'||'", "AND": "'&&'",
    "BANG": "'!'", "CIRCUMFLEX": "'^'", "TIMEOUT": "timeout", "MINDELAY": "minDelay",
    "MAXDELAY": "maxDelay", "$END": "end of script",
}


def _terminal_name(name: str) -> str:
    if name in _TERMINAL_NAMES:
        return _TERMINAL_NAMES[name]
    try:
        pattern = _PARSER.get_terminal(name).pattern
        if pattern.type == "str":
            return repr(pattern.value).replace('"', "'")
    except KeyError:
        pass
    return name.lower()


class _Error(Exception):
    """Raised inside the transformer; turned into QlSyntaxError with a position."""

    def __init__(self, message: str, line: int, column: int, found: str | None = None):
        super().__init__(message)
        self.message, self.line, self.column, self.found = message, line, column, found


def _unquote(token: str) -> str:
    return token[1:-1]


def _json_string(token: LarkToken) -> str:
    text = str(token)
    if text[0] == "'":
        # single-quoted JSON string: \' is an escape, a bare " is literal
        body = text[1:-1].replace('\\\'', "'").replace('"', '\\"')
        text = '"' + body + '"'
    try:
        return json.loads(text)
    except ValueError as e:
        raise _Error(f"invalid string escape: {e.msg}", token.line, token.column, str(token)) from None


def _number(token: LarkToken) -> int | float:
    """A number literal. Results are strict JSON, which has no Infinity: a literal that
    overflows a double (``1e99999``) is an error at its position, as is an integer with
    more digits than Python converts (``sys.get_int_max_str_digits``)."""
    text = str(token).lstrip("+")
    if text.endswith(("e", "E", "e+", "e-", "E+", "E-")):
        text = text.rstrip("eE+-")
    if text.endswith("."):
        text = text[:-1]
    shown = str(token) if len(str(token)) <= 30 else str(token)[:30] + "…"
    if re.fullmatch(r"-?\d+", text):
        try:
            return int(text)
        except ValueError:
            raise _Error(f"number {shown} has too many digits", token.line, token.column, shown) from None
    value = float(text)
    if math.isinf(value):
        raise _Error(f"number {shown} is out of range", token.line, token.column, shown)
    return value


def _template(token: LarkToken, text: str | None = None) -> Template:
    """Parse quoted text's tokens; errors point into the text itself. In clause
    text a brace always belongs to a token (spec §2.8), so a stray '}' is an error."""
    body = _unquote(str(token)) if text is None else text
    try:
        template = parse_template(body)
        if token.type == "CLAUSE_TEXT":
            stray = _stray_close(template)
            if stray is not None:
                raise TemplateSyntaxError("unmatched '}' in quoted text", stray)
        return template
    except TemplateSyntaxError as e:
        before = body[:e.offset]
        line = token.line + before.count("\n")
        column = (token.column + 1 + e.offset) if "\n" not in before else len(before) - before.rfind("\n")
        what = str(e) if "unmatched" in str(e) else f"unterminated interpolation token {body[e.offset:].split()[0]!r}"
        raise _Error(what, line, column, body[e.offset:e.offset + 20]) from None


def _template_text(token: LarkToken) -> str:
    """Quoted text that tables parse as a template when they are built (URIs, header and
    parameter names): checked here so that an unterminated '{' is a syntax error at its
    position rather than a failure when the table is compiled."""
    _template(token)
    return _unquote(str(token))


def _stray_close(template: Template) -> int | None:
    """Offset of a '}' outside every token, if any."""
    offset = 0
    for part in template.parts:
        if isinstance(part, str):
            index = part.find("}")
            if index >= 0:
                return offset + index
            offset += len(part)
        else:
            offset += len(part.raw)
    return None


def _path(token: LarkToken) -> ast.Path:
    text = str(token)
    try:
        return parse_path(text)
    except (PathSyntaxError, FilterSyntaxError) as e:
        raise _Error(f"invalid path {text!r}: {e}", token.line, token.column, text) from None


def _word(token: LarkToken, what: str) -> str:
    text = str(token)
    if not re.fullmatch(r"[A-Za-z$:][A-Za-z0-9_:]*", text):
        raise _Error(f"{what} must be a single word, not {text!r}", token.line, token.column, text)
    return text


def _pos(meta) -> ast.Pos:
    return ast.Pos(getattr(meta, "line", 1), getattr(meta, "column", 1))


def _operand(token: LarkToken) -> ast.Operand:
    if token.type == "CLAUSE_TEXT":
        return ast.TextOperand(_template(token))
    if token.type == "NUMBER":
        return ast.NumberOperand(_number(token))
    return ast.PathOperand(_path(token))


class _Tagged:
    __slots__ = ("tag", "value")

    def __init__(self, tag: str, value: Any):
        self.tag, self.value = tag, value


@v_args(meta=True)
class _ToAst(Transformer):
    def __init__(self, source: str):
        super().__init__()
        self._source = source

    def _text(self, meta) -> str:
        if getattr(meta, "empty", True):
            return ""
        return self._source[meta.start_pos:meta.end_pos]

    # -- script structure
    def start(self, meta, children):
        ret = children[-1] if children and isinstance(children[-1], ast.Return) else None
        items = tuple(children[:-1] if ret else children)
        return ast.Script(items, ret, self._source)

    def line(self, meta, children):
        target = None
        if len(children) == 2:
            target = _word(children[0], "an assignment target")
        return ast.Line(target, tuple(children[-1]), _pos(meta), self._text(meta))

    def rhs(self, meta, children):
        return children

    # -- select
    def select(self, meta, children):
        columns, sources, where, limit, offset, tuning = None, [], (), None, None, ast.Tuning()
        for child in children:
            if isinstance(child, ast.Source):
                sources.append(child)
            elif isinstance(child, _Tagged):
                if child.tag == "columns":
                    columns = child.value
                elif child.tag == "where":
                    where = child.value
                elif child.tag == "limit":
                    limit = child.value
                elif child.tag == "offset":
                    offset = child.value
            elif isinstance(child, ast.Tuning):
                tuning = child
        return ast.Select(columns, tuple(sources), where, limit, offset, tuning, _pos(meta), self._text(meta))

    def star(self, meta, children):
        return _Tagged("columns", None)

    def columns(self, meta, children):
        return _Tagged("columns", tuple(children))

    def column(self, meta, children):
        first = children[0]
        alias = _word(children[1], "a column alias") if len(children) > 1 else None
        if isinstance(first, ast.UdfCall):
            return ast.Column(None, first, alias)
        return ast.Column(_path(first), None, alias)

    def source(self, meta, children):
        alias = _word(children[1], "a source alias") if len(children) > 1 else None
        name = children[0]
        return ast.Source(str(name), alias, ast.Pos(name.line, name.column))

    def where(self, meta, children):
        return _Tagged("where", tuple(children))

    def cond_eq(self, meta, children):
        return ast.EqCondition(_path(children[0]), children[1])

    def cond_in_operand(self, meta, children):
        return ast.EqCondition(_path(children[0]), children[1])

    def cond_in_select(self, meta, children):
        return ast.InSelectCondition(_path(children[0]), children[1])

    def cond_in_list(self, meta, children):
        return ast.InListCondition(_path(children[0]), tuple(children[1]))

    def cond_udf(self, meta, children):
        return ast.UdfCondition(children[0])

    def operand(self, meta, children):
        return _operand(children[0])

    def list(self, meta, children):
        return children

    def _int(self, token: LarkToken, what: str) -> int:
        value = _number(token)
        if not isinstance(value, int) or value < 0:
            raise _Error(f"{what} must be a non-negative integer", token.line, token.column, str(token))
        return value

    def limit(self, meta, children):
        return _Tagged("limit", self._int(children[0], "limit"))

    def offset(self, meta, children):
        return _Tagged("offset", self._int(children[0], "offset"))

    def tuning(self, meta, children):
        values = {c.tag: c.value for c in children}
        return ast.Tuning(values.get("timeout"), values.get("min_delay"), values.get("max_delay"))

    def timeout(self, meta, children):
        return _Tagged("timeout", self._int(children[1], "timeout"))

    def min_delay(self, meta, children):
        return _Tagged("min_delay", self._int(children[1], "minDelay"))

    def max_delay(self, meta, children):
        return _Tagged("max_delay", self._int(children[1], "maxDelay"))

    # -- writes
    def insert(self, meta, children):
        object_text, source, columns, values, parts, tuning = None, None, None, None, None, ast.Tuning()
        for child in children:
            if isinstance(child, LarkToken):
                object_text = _template(child)
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
            raise _Error("insert \"{object}\" into … takes no columns or values", meta.line, meta.column)
        if columns is not None and values is None:
            raise _Error("insert with columns needs values (…)", meta.line, meta.column)
        if columns is not None and len(columns) != len(values):
            raise _Error(f"insert has {len(columns)} columns but {len(values)} values", meta.line, meta.column)
        if columns is None and values is not None and len(values) != 1:
            raise _Error("an opaque insert takes exactly one value", meta.line, meta.column)
        return ast.Insert(source, object_text, columns, values, parts, tuning, _pos(meta), self._text(meta))

    def insert_columns(self, meta, children):
        return _Tagged("columns", tuple(str(c) for c in children))

    def insert_values(self, meta, children):
        return _Tagged("values", tuple(children[0]))

    def insert_parts(self, meta, children):
        return _Tagged("parts", tuple(children[0]))

    def update(self, meta, children):
        source, text, tuning = children
        return ast.Update(source, _template(text), tuning, _pos(meta), self._text(meta))

    def delete(self, meta, children):
        source = children[0]
        where = next((c.value for c in children if isinstance(c, _Tagged)), ())
        return ast.Delete(source, where, children[-1], _pos(meta), self._text(meta))

    # -- create table
    def create_table(self, meta, children):
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
                raise _Error(f"table {name} maps '{kind}' more than once", meta.line, meta.column)
        return ast.CreateTable(name, connector, tuple(mappings), "", _pos(meta), self._text(meta))

    def mapping(self, meta, children):
        kind = str(children[0].children[0])
        method, uri, operation = children[1]
        fields: dict[str, Any] = {}
        for tag, value in children[2:]:
            if tag in fields:
                raise _Error(f"clause '{tag}' appears twice in the '{kind}' mapping", meta.line, meta.column)
            fields[tag] = value
        return ast.MappingDef(kind=kind, method=method, uri=uri, operation=operation, pos=_pos(meta), **fields)

    def t_get(self, meta, c):
        return ("get", _template_text(c[0]), None)

    def t_post(self, meta, c):
        return ("post", _template_text(c[0]), None)

    def t_put(self, meta, c):
        return ("put", _template_text(c[0]), None)

    def t_delete(self, meta, c):
        return ("delete", _template_text(c[0]), None)

    def t_patch(self, meta, c):
        return ("patch", _template_text(c[0]), None)

    def t_do(self, meta, c):
        return ("do", _template_text(c[1]), str(c[0]))

    def c_aliases(self, meta, c):
        return ("aliases", c[0])

    def c_headers(self, meta, c):
        return ("headers", c[0])

    def c_defaults(self, meta, c):
        return ("defaults", c[0])

    def c_patch(self, meta, c):
        return ("patch", _unquote(c[0]))

    def c_body(self, meta, c):
        return ("body", ast.BodySpec(_unquote(c[0]), _unquote(c[1]), _unquote(c[2]) if len(c) > 2 else None))

    def c_auth(self, meta, c):
        return ("auth", _unquote(c[-1]))

    def c_resultset(self, meta, c):
        return ("resultset", _unquote(c[0]))

    def c_expires(self, meta, c):
        return ("expires", self._int(c[0], "expires"))

    def c_expect(self, meta, c):
        return ("expect", tuple(c))

    def expect_item(self, meta, c):
        return (str(c[-1]), len(c) > 1)

    def pairs(self, meta, children):
        return tuple(children)

    def pair(self, meta, children):
        name_tok, value = children
        name = _template_text(name_tok) if name_tok.type == "CLAUSE_TEXT" else str(name_tok)
        return ast.Pair(name, value)

    # -- introspection
    def show_tables(self, meta, c):
        return ast.ShowTables(_pos(meta), self._text(meta))

    def show_routes(self, meta, c):
        return ast.ShowRoutes(_pos(meta), self._text(meta))

    def describe(self, meta, c):
        return ast.Describe(str(c[-1]), _pos(meta), self._text(meta))

    def describe_route(self, meta, c):
        return ast.DescribeRoute(_unquote(c[0]), c[1], _pos(meta), self._text(meta))

    def method(self, meta, c):
        return str(c[0])

    # -- return and routes
    def return_stmt(self, meta, children):
        route = children[-1] if children and isinstance(children[-1], ast.RouteSpec) else None
        choices = tuple(children[:-1] if route else children)
        return ast.Return(choices, route, _pos(meta), "", self._text(meta))

    def ret_ref(self, meta, children):
        token = children[0]
        if str(token) in ("true", "false", "null"):
            return ast.JsonLiteral({"true": True, "false": False, "null": None}[str(token)], False)
        return ast.VarRef(_word(token, "a returned variable"), _pos(meta))

    def route(self, meta, children):
        path = _unquote(children[0])
        method, optional, defaults, headers = None, False, (), ()
        for tag, value in children[1:]:
            if tag == "method":
                method = value
            elif tag == "optional":
                optional = True
            elif tag == "defaults":
                defaults = value
            elif tag == "headers":
                headers = value
        if method is None:
            raise _Error("a route needs 'using method …'", meta.line, meta.column)
        return ast.RouteSpec(path, method, optional, defaults, headers, _pos(meta))

    def r_optional(self, meta, c):
        return ("optional", True)

    def r_defaults(self, meta, c):
        return ("defaults", c[0])

    def r_method(self, meta, c):
        return ("method", c[0])

    def r_headers(self, meta, c):
        return ("headers", c[0])

    # -- blocks
    def if_block(self, meta, children):
        cond = children[0]
        orelse = None
        body = children[1:]
        if body and isinstance(body[-1], _Tagged) and body[-1].tag == "else":
            orelse = body[-1].value
            body = body[:-1]
        return ast.IfBlock(cond, tuple(body), orelse, _pos(meta))

    def else_block(self, meta, children):
        return _Tagged("else", tuple(children))

    def try_block(self, meta, children):
        body, catches, final = [], [], None
        for child in children:
            if isinstance(child, ast.Catch):
                catches.append(child)
            elif isinstance(child, _Tagged):
                final = child.value
            else:
                body.append(child)
        return ast.TryBlock(tuple(body), tuple(catches), final, _pos(meta))

    def catch(self, meta, children):
        return ast.Catch(children[0], tuple(children[1:]))

    def finally_block(self, meta, children):
        return _Tagged("finally", tuple(children))

    def throw(self, meta, children):
        return ast.Throw(_word(children[0], "a thrown flag"), _pos(meta))

    def cond_or(self, meta, children):
        return children[0] if len(children) == 1 else ast.CondOr(tuple(children))

    def cond_and(self, meta, children):
        return children[0] if len(children) == 1 else ast.CondAnd(tuple(children))

    def cond_not(self, meta, children):
        return ast.CondNot(children[0])

    def cond_var(self, meta, children):
        return ast.CondVar(_word(children[0], "a condition variable"))

    # -- UDFs and JSON
    def udf_call(self, meta, children):
        name = str(children[0])
        args = tuple(children[1:])
        if name == "require":
            if len(args) != 1 or not isinstance(args[0], ast.JsonLiteral) or not isinstance(args[0].value, str):
                raise _Error("require takes one quoted module name", meta.line, meta.column)
            return ast.Require(args[0].value, _pos(meta))
        if "." not in name:
            raise _Error(f"'{name}(…)' is not a UDF call: write module.function(…) with a module "
                         "bound by require()", meta.line, meta.column, name)
        module, function = name.rsplit(".", 1)
        return ast.UdfCall(module, function, args, _pos(meta))

    def udf_path_arg(self, meta, children):
        return _path(children[0])

    def string(self, meta, children):
        value = _json_string(children[0])
        template = _template(children[0], value)
        if template.tokens:
            return ast.JsonLiteral(template, True)
        return ast.JsonLiteral(value, False)

    def number(self, meta, children):
        return ast.JsonLiteral(_number(children[0]), False)

    def true(self, meta, c):
        return ast.JsonLiteral(True, False)

    def false(self, meta, c):
        return ast.JsonLiteral(False, False)

    def null(self, meta, c):
        return ast.JsonLiteral(None, False)

    def object(self, meta, children):
        out: dict[str, Any] = {}
        templated = False
        for key, value in children:
            out[key] = value.value
            templated = templated or value.templated
        return ast.JsonLiteral(out, templated)

    def member(self, meta, children):
        return (_json_string(children[0]), children[1])

    def array(self, meta, children):
        return ast.JsonLiteral([c.value for c in children], any(c.templated for c in children))


def _attach_docs(script: ast.Script, comments: list[LarkToken]) -> ast.Script:
    """Comments right before a create table or the return become its documentation."""
    if not comments:
        return script
    import dataclasses

    def comment_text(tok: LarkToken) -> str:
        text = str(tok)
        if text.startswith("--"):
            return text[2:].strip()
        body = text[2:-2]
        if body.startswith("*"):
            body = body[1:]
        lines = [re.sub(r"^\s*\*?\s?", "", ln) for ln in body.splitlines()]
        return "\n".join(lines).strip()

    def doc_before(line: int, lower: int) -> str:
        picked = [c for c in comments if lower <= c.end_line <= line and c.line < line]
        picked = [c for c in picked if c.end_line < line or c.column < 1]
        return "\n".join(comment_text(c) for c in picked).strip()

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


def item_text_lines(item: ast.Item) -> int:
    text = getattr(item, "text", "") or ""
    return max(1, text.count("\n") + 1)


def _after_bare_word_assignment(source: str, e: UnexpectedToken) -> bool:
    """``copy = original`` (spec §3): the token after a lone word on an assignment's right."""
    end = len(source) if e.token.type == "$END" else e.token.start_pos
    before = source[:end].rstrip()
    return bool(re.search(r"(^|[;\s])[A-Za-z$:][A-Za-z0-9_:]*\s*=\s*[A-Za-z$:][A-Za-z0-9_:.\[\]]*$", before)) \
        and "LPAR" in (e.accepts or e.expected or ())


def _offset(source: str, line: int, column: int) -> int:
    lines = source.splitlines(keepends=True)
    return sum(len(l) for l in lines[:line - 1]) + column - 1


def _syntax_error(source: str, e: UnexpectedInput, origin: str | None) -> QlSyntaxError:
    lines = source.splitlines() or [""]
    line = getattr(e, "line", None) or 1
    column = getattr(e, "column", None) or 1
    if isinstance(e, UnexpectedEOF) or (isinstance(e, UnexpectedToken) and e.token.type == "$END"):
        line = len(lines)
        column = len(lines[-1]) + 1 if lines else 1
        found = None
        expected = sorted({_terminal_name(t) for t in getattr(e, "expected", [])})
        message = "unexpected end of script"
        if isinstance(e, UnexpectedToken) and _after_bare_word_assignment(source, e):
            message = "a bare word is not a value; write \"{name}\" to copy a variable"
            expected = []
    elif isinstance(e, UnexpectedToken):
        found = str(e.token)
        expected = sorted({_terminal_name(t) for t in e.accepts or e.expected})
        message = f"unexpected {found!r}"
        if _after_bare_word_assignment(source, e):
            message = "a bare word is not a value; write \"{name}\" to copy a variable"
            expected = []
    else:
        assert isinstance(e, UnexpectedCharacters)
        found = source[e.pos_in_stream:e.pos_in_stream + 1]
        if found in "\"'":
            message = "unterminated string"
        elif source.startswith("/*", e.pos_in_stream):
            message = "unterminated block comment"
            e.allowed = set()
        else:
            message = f"unexpected character {found!r}"
        expected = sorted({_terminal_name(t) for t in (e.allowed or ())})
    if found and re.fullmatch(r"[A-Za-z0-9_:$]+", found):
        # a keyword literal may have matched the front of a longer word ("gett"): report the word
        offset = _offset(source, line, column)
        start = offset
        while start > 0 and re.match(r"[A-Za-z0-9_:$]", source[start - 1]):
            start -= 1
        end = offset
        while end < len(source) and re.match(r"[A-Za-z0-9_:$]", source[end]):
            end += 1
        if start < offset:
            found = source[start:end]
            column -= offset - start
            message = f"unexpected {found!r}"
            expected = []  # what lark expected was after the keyword it wrongly matched
    if expected:
        shown = expected if len(expected) <= 8 else expected[:8] + ["…"]
        message += "; expected " + ", ".join(shown)
    source_line = lines[line - 1] if 0 < line <= len(lines) else ""
    return QlSyntaxError(message, line=line, column=column, source_line=source_line,
                         found=found, expected=expected, source=origin)


MAX_NESTING = 64
# comments, quoted text (a backslash escapes in JSON strings; clause text has none, and
# reading it as if it had only shortens a piece) and brackets, in one pass
_PIECE = re.compile(r"--[^\n]*|/\*.*?(?:\*/|\Z)|\"(?:[^\"\\]|\\.)*\"?|'(?:[^'\\]|\\.)*'?|[\[\]{}()]", re.S)
_BRACE = re.compile(r"[{}]")


def _check_nesting(source: str, origin: str | None) -> None:
    """Refuse nesting deeper than any real script needs, before parsing: the parser,
    the transformer and the template reader all recurse, and a script of nothing but
    ``{{{{…`` would otherwise cost seconds of CPU before failing. Brackets count
    outside quoted text; inside it, the braces of interpolation tokens; comments not."""
    depth = 0
    for piece in _PIECE.finditer(source):
        text = piece.group()
        if text in "[{(":
            depth += 1
            if depth > MAX_NESTING:
                _too_deep(source, piece.start(), origin)
        elif text in "]})":
            depth = max(0, depth - 1)
        elif text[0] in "\"'" and "{" in text:
            inner = 0
            for brace in _BRACE.finditer(text):
                inner = inner + 1 if brace.group() == "{" else max(0, inner - 1)
                if inner > MAX_NESTING:
                    _too_deep(source, piece.start() + brace.start(), origin)


def _too_deep(source: str, offset: int, origin: str | None) -> None:
    line = source.count("\n", 0, offset) + 1
    column = offset - (source.rfind("\n", 0, offset) + 1) + 1
    lines = source.splitlines()
    source_line = lines[line - 1] if 0 < line <= len(lines) else ""
    raise QlSyntaxError(f"brackets nested more than {MAX_NESTING} deep", line=line, column=column,
                        source_line=source_line[:200], found=source[offset], source=origin)


def parse(source: str, *, origin: str | None = None) -> ast.Script:
    """Parse a script. Raises QlSyntaxError and nothing else."""
    if not isinstance(source, str):
        raise QlSyntaxError("script must be text", line=1, column=1)
    _check_nesting(source, origin)
    sink: list[LarkToken] = []
    _comments.sink = sink
    try:
        tree = _PARSER.parse(source)
        script = _ToAst(source).transform(tree)
    except UnexpectedInput as e:
        raise _syntax_error(source, e, origin) from None
    except VisitError as e:
        inner = e.orig_exc
        if isinstance(inner, _Error):
            lines = source.splitlines() or [""]
            src_line = lines[inner.line - 1] if 0 < inner.line <= len(lines) else ""
            raise QlSyntaxError(inner.message, line=inner.line, column=inner.column,
                                source_line=src_line, found=inner.found, source=origin) from None
        if isinstance(inner, RecursionError):
            raise QlSyntaxError("script is nested too deeply", line=1, column=1, source=origin) from None
        raise QlSyntaxError(f"invalid script: {inner}", line=1, column=1, source=origin) from None
    except RecursionError:
        raise QlSyntaxError("script is nested too deeply", line=1, column=1, source=origin) from None
    finally:
        _comments.sink = None
    return _attach_docs(script, sink)
