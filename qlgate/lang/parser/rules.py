"""What every group of transformer rules shares: the script text and a way to tag a
clause's value.

The transformer is split by grammar section (queries, declarations, blocks, values),
one mixin per module; each subclasses ``Rules`` so that ``self.text(meta)`` is typed.
Each mixin class is decorated with ``@v_args(meta=True)`` itself: lark's decorator
wraps only the methods a class defines, not the ones it inherits.
"""

from __future__ import annotations

from typing import Any

from lark import Transformer
from lark.tree import Meta

Children = list[Any]  # a rule's children, already transformed (a name: a rule called ``list`` shadows the type)


class Tagged:
    """A clause's value labelled with the clause it came from (``where``, ``limit``…),
    so that the statement rule can tell optional clauses apart."""

    __slots__ = ("tag", "value")

    def __init__(self, tag: str, value: Any):
        self.tag, self.value = tag, value


class Rules(Transformer):
    def __init__(self, source: str):
        super().__init__()
        self._source = source

    def _text(self, meta: Meta) -> str:
        """The source text a rule matched (statements keep it for messages and describe)."""
        if getattr(meta, "empty", True):
            return ""
        return self._source[meta.start_pos : meta.end_pos]
