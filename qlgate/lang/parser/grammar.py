"""The lark parser for ``grammar.lark``, built once per process, and the comments it
saw while parsing.

Comments are ignored by the grammar (they may stand anywhere), yet the ones right
before a ``create table`` or a ``return`` are that statement's documentation. The
lexer hands every comment to ``_collect_comment``; ``collecting_comments`` points it
at a list for the duration of one parse. The list is thread-local because the one
parser object is shared by every thread.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from lark import Lark
from lark import Token as LarkToken

_GRAMMAR = Path(__file__).resolve().parent.parent.joinpath("grammar.lark").read_text(encoding="utf-8")
_comments = threading.local()


def _collect_comment(token: LarkToken) -> LarkToken:
    sink = getattr(_comments, "sink", None)
    if sink is not None:
        sink.append(token)
    return token


PARSER = Lark(
    _GRAMMAR,
    parser="lalr",
    lexer="contextual",
    propagate_positions=True,
    maybe_placeholders=False,
    cache=True,
    lexer_callbacks={"LINE_COMMENT": _collect_comment, "BLOCK_COMMENT": _collect_comment},
)


@contextmanager
def collecting_comments() -> Iterator[list[LarkToken]]:
    """The comment tokens the lexer meets inside the ``with`` block, in source order."""
    sink: list[LarkToken] = []
    _comments.sink = sink
    try:
        yield sink
    finally:
        _comments.sink = None
