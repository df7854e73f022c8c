"""Script text → AST. lark stays inside this package.

Errors come out as ``QlSyntaxError`` with line, column, the offending text and
what the grammar expected there; nothing else escapes ``parse``.

The package is split by job: ``limits`` refuses absurd nesting before lark runs,
``grammar`` holds the lark parser, ``transformer`` (with one rule module per grammar
section: ``queries``, ``declarations``, ``blocks``, ``values``; and ``literals`` for
tokens) builds the AST, ``docs`` attaches comments as documentation, and
``messages`` turns lark's errors into readable ones.
"""

from __future__ import annotations

from lark.exceptions import UnexpectedInput, VisitError

from ...errors import QlSyntaxError
from .. import ast
from .docs import attach_docs, item_text_lines
from .grammar import PARSER, collecting_comments
from .limits import MAX_NESTING, check_nesting
from .literals import ErrorAt
from .messages import syntax_error
from .transformer import ToAst

__all__ = ["MAX_NESTING", "item_text_lines", "parse"]


def parse(source: str, *, origin: str | None = None) -> ast.Script:
    """Parse a script. Raises QlSyntaxError and nothing else."""
    if not isinstance(source, str):
        raise QlSyntaxError("script must be text", line=1, column=1)
    check_nesting(source, origin)
    with collecting_comments() as comments:
        try:
            tree = PARSER.parse(source)
            script = ToAst(source).transform(tree)
        except UnexpectedInput as e:
            raise syntax_error(source, e, origin) from None
        except VisitError as e:
            raise _rule_error(source, e.orig_exc, origin) from None
        except RecursionError:
            raise QlSyntaxError("script is nested too deeply", line=1, column=1, source=origin) from None
    return attach_docs(script, comments)


def _rule_error(source: str, inner: BaseException, origin: str | None) -> QlSyntaxError:
    """The error for an exception a transformer rule raised."""
    if isinstance(inner, ErrorAt):
        lines = source.splitlines() or [""]
        src_line = lines[inner.line - 1] if 0 < inner.line <= len(lines) else ""
        return QlSyntaxError(
            inner.message,
            line=inner.line,
            column=inner.column,
            source_line=src_line,
            found=inner.found,
            source=origin,
        )
    if isinstance(inner, RecursionError):
        return QlSyntaxError("script is nested too deeply", line=1, column=1, source=origin)
    return QlSyntaxError(f"invalid script: {inner}", line=1, column=1, source=origin)
