"""What a run may build: the count of work a script can multiply at will.

Text it interpolates, values it places in literals, rows its in-memory
operations compare: each is cheap once, and a script can ask for it a million
times over. Twenty lines of ``a1 = "{a0}{a0}"`` would build half a gigabyte on
the event loop. So the run counts such work against config ``scriptBudget``
and fails the script, with a typed error, once it is spent.

Also here: the filling of templates and JSON literals, the main spender, which
must count what it builds while it builds it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import ScriptBudgetExceeded
from ..lang.templates import Template, interpolate, interpolate_text
from ..values import MISSING

Lookup = Callable[[str], Any]


class Budget:
    def __init__(self, limit: int):
        self.limit = limit
        self.spent = 0
        self._sizes: dict[int, tuple[Any, int]] = {}  # id → (container, its size): see size()

    def spend(self, units: int, what: str) -> None:
        self.spent += units
        if self.spent > self.limit:
            raise ScriptBudgetExceeded(
                f"the script builds more than {self.limit:,} units of work ({what}); the limit is config scriptBudget"
            )

    def note_size(self, value: Any, size: int) -> None:
        """Record what a value weighs when it is known cheaply (an upstream answer: its
        bytes), so placing it in a literal costs a lookup, not a walk."""
        if isinstance(value, (dict, list)):
            self._sizes[id(value)] = (value, size)

    def size(self, value: Any) -> int:
        """What a value adds to an answer it is placed in: text its length, a container
        the sum of what it holds, shared parts counted as often as they appear (what
        its JSON would weigh). Each container is measured once per run (kept alive, so
        its id stays its own); measuring counts as work too."""
        if isinstance(value, str):
            return len(value)
        if not isinstance(value, (dict, list)):
            return 1
        sizes = self._sizes
        known = sizes.get(id(value))
        if known is not None:
            return known[1]
        stack: list[tuple[Any, bool]] = [(value, False)]
        entered: set[int] = set()  # a patch or UDF could hand back a cycle
        while stack:
            node, measured = stack.pop()
            if id(node) in sizes:
                continue
            children = node.values() if isinstance(node, dict) else node
            if not measured:
                if id(node) in entered:
                    continue
                entered.add(id(node))
                stack.append((node, True))
                stack.extend((c, False) for c in children if isinstance(c, (dict, list)) and id(c) not in sizes)
                continue
            total = 1
            for child in children:
                if isinstance(child, (dict, list)):
                    known = sizes.get(id(child))
                    total += known[1] if known is not None else 1
                else:
                    total += len(child) if isinstance(child, str) else 1
            sizes[id(node)] = (node, total)
        self.spend(len(entered), "measuring a value")
        return sizes[id(value)][1]

    # ------------------------------------------------------------------ filling
    def fill(self, value: Any, lookup: Lookup) -> Any:
        """Interpolate every string of a JSON literal (§4.1). A literal that places a
        value in itself many times (``a2 = ["{a1}", "{a1}"]``) multiplies its size: that is
        counted, so doubling it twenty times fails early instead of filling memory."""
        if isinstance(value, Template):  # the literal is one string: nothing is nested
            return self.interpolate(value, lookup)
        filled, size = self._fill(value, lookup)
        self.spend(size, "a JSON literal")
        self.note_size(filled, size)
        return filled

    def _fill(self, value: Any, lookup: Lookup) -> tuple[Any, int]:
        if isinstance(value, Template):
            filled = interpolate(value, lookup)
            return filled, self.size(filled)
        if isinstance(value, dict):
            out, total = {}, 1
            for k, v in value.items():
                filled, size = self._fill(v, lookup)
                if filled is not MISSING:
                    out[k] = filled
                    total += size
            return out, total
        if isinstance(value, list):
            items, total = [], 1
            for v in value:
                filled, size = self._fill(v, lookup)
                items.append(None if filled is MISSING else filled)
                total += size
            return items, total
        return value, 1

    def text(self, template: Template, lookup: Lookup) -> str:
        built = interpolate_text(template, lookup)
        if template.tokens:
            self.spend(len(built), "interpolated text")
        return built

    def interpolate(self, template: Template, lookup: Lookup) -> Any:
        """Quoted text of a statement, filled: whole tokens keep their type, text is counted."""
        filled = interpolate(template, lookup)
        if isinstance(filled, str) and template.tokens and template.whole_token is None:
            self.spend(len(filled), "interpolated text")
        return filled
