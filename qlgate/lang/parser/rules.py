"""What every group of transformer rules shares: the script text and a way to tag a
clause's value.

The transformer is split by grammar section (queries, declarations, blocks, values),
one mixin per module; each subclasses ``Rules`` so that ``self.text(meta)`` is typed.
Each mixin class is decorated with ``@v_args(meta=True)`` itself: lark's decorator
wraps only the methods a class defines, not the ones it inherits.
"""

from __future__ import annotations

from typing import Any

from lark import Transformer, v_args
from lark.exceptions import GrammarError, VisitError
from lark.tree import Meta, Tree

Children = list[Any]  # a rule's children, already transformed (a name: a rule called ``list`` shadows the type)


class Tagged:
    """A clause's value labelled with the clause it came from (``where``, ``limit``…),
    so that the statement rule can tell optional clauses apart."""

    __slots__ = ("tag", "value")

    def __init__(self, tag: str, value: Any):
        self.tag, self.value = tag, value


class Rules(Transformer):
    def __init__(self, source: str):
        # no rule is named after a terminal: tokens pass through untouched, without lark
        # looking (and failing, an exception each) for a method per token
        super().__init__(visit_tokens=False)
        self._source = source

    def _call_userfunc(self, tree: Tree, new_children: list[Any] | None = None) -> Any:
        """lark's dispatch without its cost per rule: looking a ``v_args`` method up on
        the instance builds a wrapper object and copies its metadata (``functools.
        update_wrapper``) every time, a tenth of a parse. The rule functions, each
        taking ``(meta, children)``, are found once per class instead."""
        function = _rule_functions(type(self)).get(tree.data)
        if function is None:
            return super()._call_userfunc(tree, new_children)
        children = new_children if new_children is not None else tree.children
        try:
            return function(self, tree.meta, children)
        except GrammarError:
            raise
        except Exception as e:  # as lark does: parse() unwraps VisitError
            raise VisitError(tree.data, tree, e) from e

    def _text(self, meta: Meta) -> str:
        """The source text a rule matched (statements keep it for messages and describe)."""
        if getattr(meta, "empty", True):
            return ""
        return self._source[meta.start_pos : meta.end_pos]


_functions: dict[type, dict[str, Any]] = {}


def _rule_functions(cls: type) -> dict[str, Any]:
    """Rule name → the plain function of every ``@v_args(meta=True)`` method of ``cls``."""
    found = _functions.get(cls)
    if found is None:
        found = {}
        for name in dir(cls):
            member: Any = getattr(cls, name, None)
            if getattr(member, "visit_wrapper", None) is _VARGS_META and hasattr(member, "base_func"):
                found[name] = member.base_func
        _functions[cls] = found
    return found


def _vargs_meta_wrapper() -> Any:
    """The ``visit_wrapper`` lark gives ``v_args(meta=True)`` methods."""

    class Probe(Transformer):
        @v_args(meta=True)
        def rule(self, meta: Meta, children: list[Any]) -> None:
            return None

    return Probe.rule.visit_wrapper  # type: ignore[attr-defined]


_VARGS_META = _vargs_meta_wrapper()
