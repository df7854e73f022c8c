"""The plan cache: one parse and one set of checks per script *shape*, as a prepared
statement is prepared once for all its parameter values.

The engine's compile cache is keyed by a script's exact text, so a gateway that sees
``… where q = "x1"``, ``… q = "x2"``… compiles every request anew. Here scripts are
keyed by their shape (``qlgate.lang.lift``: the text with its plain ``where``
literals cut out), the trust they run under and their base directory. The first
script of a shape is compiled in full; its template (``qlgate.lang.reuse``) then
rebuilds the AST of every later one in a few microseconds, and the planner runs on
that AST, so positions, statement texts, warnings and errors are the script's own.

What the first compile worked out beyond the plan is shared: the trust check, the
credential check, the tables it named, its inline tables, whether it writes and
whether its runs may share answers. None of these can depend on a lifted value: a
lifted literal is plain text or an integer standing as a ``where`` operand, which
names no variable, config key, table, credential or code.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from typing import Any, Generic, TypeVar

from ..errors import QlError
from ..lang import ast
from ..lang.lift import Lifted
from ..lang.reuse import NotReusable, ShapeTemplate
from .planner import Plan, compile_script

C = TypeVar("C")  # the engine's Compiled (its ``plan`` is replaced per script)

_NOT_REUSABLE = "not reusable"  # a shape whose literals are not all plain operands
_SEEN = "seen once"  # a shape one script had: learned when a second one has it too


class SharedPlans(Generic[C]):
    """An LRU of shape key → (template, the first script's compilation), bounded by
    count and by characters of script text, safe to use from several threads."""

    def __init__(self, size: int, max_chars: int):
        self._entries: OrderedDict[tuple, tuple[Any, int]] = OrderedDict()
        self._size, self._max_chars, self._chars = size, max_chars, 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    def knows(self, key: tuple) -> bool:
        """Has the shape ``key`` a plan to share?"""
        with self._lock:
            entry = self._entries.get(key)
        return entry is not None and not isinstance(entry[0], str)

    def compiled(self, key: tuple, lifted: Lifted, script: str) -> C | None:
        """The compilation of ``script`` from its shape's, or None if the shape is new
        (or cannot be shared)."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
        if entry is None or isinstance(entry[0], str):
            return None
        template, plan, first = entry[0]
        parsed, made = template.build(lifted, script)
        return dataclasses.replace(first, plan=moved_plan(plan, parsed, made))

    def learn(self, key: tuple, lifted: Lifted, script: str, parsed: ast.Script, compiled: C, parse: Any) -> None:
        """Remember the shape of a script just compiled in full (``parsed`` its AST). The
        first script of a shape only marks it seen: learning costs about two compiles,
        which a shape no other script has would never pay back."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                self._store(key, _SEEN, 0)
                return
            if entry[0] != _SEEN:
                return
        try:
            template = ShapeTemplate.learn(lifted, script, parsed, parse)
            try:
                plan = compile_script(template.shape)
            except QlError:
                raise NotReusable("the shape does not compile as the script did") from None
            own, made = template.build(lifted, script)
            if plan_outline(moved_plan(plan, own, made)) != plan_outline(compiled.plan):  # type: ignore[attr-defined]
                raise NotReusable("the shape's plan, moved, is not the script's")
            value: Any = (template, plan, compiled)
        except NotReusable:
            value = _NOT_REUSABLE
        except Exception:  # noqa: BLE001 - sharing is an optimisation: a script that compiled must not fail here
            value = _NOT_REUSABLE
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry[0] == _SEEN:
                self._store(key, value, len(script))

    def _store(self, key: tuple, value: Any, chars: int) -> None:
        """Under the lock: set ``key``, then drop the least recently used past the bounds."""
        old = self._entries.pop(key, None)
        if old is not None:
            self._chars -= old[1]
        self._entries[key] = (value, chars)
        self._chars += chars
        while len(self._entries) > self._size or self._chars > self._max_chars:
            _, (_, dropped) = self._entries.popitem(last=False)
            self._chars -= dropped


def moved_plan(plan: Plan, script: ast.Script, made: dict[int, Any]) -> Plan:
    """``plan`` (of a shape's AST) for ``script``, an AST built from it: each node the
    plan names by its id, or holds, swapped for what ``made`` made of it. Nothing in a
    plan depends on a lifted value (``compile_script`` reads names, not values)."""

    def new(old: Any) -> Any:
        return made.get(id(old), old)

    def key(old: int) -> int:
        found = made.get(old)
        return old if found is None else id(found)

    return Plan(
        script=script,
        assigned=plan.assigned,
        requires={name: new(node) for name, node in plan.requires.items()},
        inline_tables=tuple(new(node) for node in plan.inline_tables),
        deps={key(k): v for k, v in plan.deps.items()},
        block_vars={key(k): v for k, v in plan.block_vars.items()},
        write_after={key(k): key(v) for k, v in plan.write_after.items()},
        write_lines=frozenset(key(k) for k in plan.write_lines),
        returned_refs=tuple(new(ref) for ref in plan.returned_refs),
        final_item=new(plan.final_item),
        lines={key(k): new(line) for k, line in plan.lines.items()},
        warnings=plan.warnings,
    )


def plan_outline(plan: Plan) -> tuple:
    """A plan with each id replaced by where its node or tuple first stands in the
    script (an index in one walk): two plans of equal scripts are alike iff their
    outlines are equal. For checking a shared plan, not for every request."""
    where: dict[int, int] = {}
    stack: list[Any] = [plan.script]
    while stack:
        value = stack.pop()
        if isinstance(value, (str, int, float, bool)) or value is None:
            continue
        where.setdefault(id(value), len(where))
        if isinstance(value, (tuple, list)):
            stack.extend(reversed(value))
        elif isinstance(value, dict):
            stack.extend(reversed(list(value.values())))
        elif dataclasses.is_dataclass(value):
            stack.extend(reversed([getattr(value, f.name) for f in dataclasses.fields(value)]))

    def at(ident: int) -> int:
        return where.get(ident, -1)

    return (
        plan.script,
        plan.assigned,
        plan.requires,
        plan.inline_tables,
        sorted((at(k), sorted(v)) for k, v in plan.deps.items()),
        sorted((at(k), sorted(v)) for k, v in plan.block_vars.items()),
        sorted((at(k), at(v)) for k, v in plan.write_after.items()),
        sorted(at(k) for k in plan.write_lines),
        plan.returned_refs,
        plan.final_item,
        sorted((at(k), line) for k, line in plan.lines.items()),
        plan.warnings,
    )
