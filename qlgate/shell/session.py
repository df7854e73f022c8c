"""One shell session: a workspace's engine, and what earlier statements left.

Each statement typed into the shell runs as a script of its own (the engine
compiles and caches scripts by their text), so the session carries over, from
one to the next, what a script would otherwise keep to itself:

- **Variables.** The engine's ``Result`` holds a script's value, not its
  variables, and the shell keeps the engine as it is: a statement's variables
  are read from its value. A script without a ``return`` is worth its last
  top-level statement (spec §7.3), so ``x = select …`` is worth ``x``'s value;
  any other statement that assigns — several assignments, an ``if`` or ``try``
  block — runs with a ``return`` added that gathers them
  (``return {"a": "{a}", …}``: a string that is one token keeps the value's
  type), its last untargeted statement, if any, given a name of the shell's
  (``$shell_value``) so that what it is worth is still shown. The variables kept
  are the next statements' context, as ``--var`` values are a script's.
- **A bare word after ``return``** must be a variable the script assigns
  (spec §4.7); one the session holds is read as ``"{word}"``, the same value.
- **Tables** made by ``create table`` are added to the engine's registry, so
  later statements, ``.tables`` and completion see them.

What is not carried over: names bound by ``require`` (a UDF call must name a
module its own script requires: write the ``require`` and its calls in one
statement) and the variables of a statement that ends in ``return`` (its
value is the return's, not theirs).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine.options import RunOptions
from ..lang import ast
from ..lang.parser import parse
from ..values import MISSING

if TYPE_CHECKING:
    from ..diagnostics import Diagnostics
    from ..engine.engine import Compiled
    from ..workspace import Workspace

LAST = "$shell_value"  # the name given to a statement's last untargeted line when its variables are gathered


@dataclass
class Outcome:
    """What one statement gave: its value, the variables it assigned, the tables
    it defined, and what the run said. ``show``: false when there is nothing to
    show but the tables (a ``create table`` alone)."""

    value: Any
    show: bool = True
    assigned: dict[str, Any] = field(default_factory=dict)
    tables: list[str] = field(default_factory=list)
    diagnostics: Diagnostics | None = None
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


class Session:
    def __init__(self, workspace: Workspace, *, variables: dict[str, Any] | None = None, base_dir: Path | None = None):
        self.workspace = workspace
        self.engine = workspace.engine
        self.variables: dict[str, Any] = dict(variables or {})
        self.base_dir = base_dir or Path.cwd()
        self.defined: list[str] = []  # tables created in this session, in order
        self._shown_problems: set[str] = set()

    def new_problems(self) -> list[Any]:
        """Load problems (tables that did not compile) not yet reported: a lazily
        opened workspace learns a table's when a statement first names it."""
        fresh = [p for p in self.workspace.problems if str(p) not in self._shown_problems]
        self._shown_problems.update(str(p) for p in fresh)
        return fresh

    async def run(self, text: str) -> Outcome:
        """Run one statement (or several written without ``;`` between them).
        Raises QlError as the engine does; the session is unchanged then."""
        parsed = parse(text)
        text = _bind_returned_words(text, parsed, self.variables)
        compiled = self.engine.compile(text, base_dir=self.base_dir)
        plan = compiled.plan
        kept = sorted(plan.assigned - set(plan.requires))
        notes = []
        gather = False
        if kept and plan.script.ret is not None:
            notes.append("variables assigned in a statement that ends in return are not kept: end them with ';'")
        elif kept and not _worth_its_only_variable(plan.script, kept):
            gather = True
            compiled = self.engine.compile(_gathering(text, plan.script, kept), base_dir=self.base_dir)
        result = await self.engine.run_compiled(
            compiled, RunOptions(context=dict(self.variables), base_dir=self.base_dir)
        )
        value, assigned = _read(result.value, plan.script, kept, gather)
        self.variables.update(assigned)
        outcome = Outcome(
            value, assigned=assigned, diagnostics=result.diagnostics, warnings=list(result.warnings), notes=notes
        )
        outcome.tables = self._keep_tables(compiled)
        if outcome.tables and all(_defines_table(item) for item in plan.script.items):
            outcome.show = False
        return outcome

    def _keep_tables(self, compiled: Compiled) -> list[str]:
        names = []
        for table in compiled.inline:
            self.engine.tables.add(table)
            if table.name not in self.defined:
                self.defined.append(table.name)
            names.append(table.name)
        return names


def _bind_returned_words(text: str, parsed: ast.Script, variables: dict[str, Any]) -> str:
    """``return x`` with ``x`` a session variable the statement does not assign,
    as ``return "{x}"`` (a bare word must be assigned by its own script)."""
    if parsed.ret is None:
        return text
    assigned = {item.target for item in _lines(parsed.items) if item.target}
    refs = [c for c in parsed.ret.choices if isinstance(c, ast.VarRef) and c.name in variables.keys() - assigned]
    for ref in sorted(refs, key=lambda r: (r.pos.line, r.pos.column), reverse=True):
        at = _offset(text, ref.pos)
        if text.startswith(ref.name, at):
            text = f'{text[:at]}"{{{ref.name}}}"{text[at + len(ref.name) :]}'
    return text


def _lines(items: tuple[Any, ...]) -> list[ast.Line]:
    """Every line of ``items``, inside blocks too."""
    out: list[ast.Line] = []
    for item in items:
        if isinstance(item, ast.Line):
            out.append(item)
        elif isinstance(item, ast.IfBlock):
            out += _lines(item.then) + _lines(item.orelse or ())
        elif isinstance(item, ast.TryBlock):
            out += _lines(item.body) + _lines(item.final or ())
            for catch in item.catches:
                out += _lines(catch.body)
    return out


def _last_line(script: ast.Script) -> ast.Line | None:
    """The top-level line the script's value comes from (None: a block, or nothing)."""
    lines = [item for item in script.items if not _defines_table(item)]
    last = lines[-1] if lines else None
    return last if isinstance(last, ast.Line) else None


def _defines_table(item: Any) -> bool:
    return isinstance(item, ast.Line) and all(isinstance(c, ast.CreateTable) for c in item.choices)


def _worth_its_only_variable(script: ast.Script, kept: list[str]) -> bool:
    """``x = …`` alone: the script's value is ``x``'s."""
    last = _last_line(script)
    return last is not None and kept == [last.target]


def _gathering(text: str, script: ast.Script, kept: list[str]) -> str:
    """The statement with a ``return`` that gathers its variables (and the value of
    its last line, named ``$shell_value`` when it has no name of its own)."""
    names = list(kept)
    last = _last_line(script)
    if last is not None and last.target is None:
        at = _offset(text, last.pos)
        text = f"{text[:at]}{LAST} = {text[at:]}"
        names.append(LAST)
    members = ", ".join(f'"{name}": "{{{name}}}"' for name in names)
    return f"{text}\nreturn {{{members}}};"


def _read(value: Any, script: ast.Script, kept: list[str], gathered: bool) -> tuple[Any, dict[str, Any]]:
    """The statement's own value and the variables it assigned, from what it returned."""
    if not kept or script.ret is not None:
        return value, {}
    if not gathered:  # ``x = …``: worth x
        return value, ({} if value is MISSING else {kept[0]: value})
    found = value if isinstance(value, dict) else {}
    assigned = {name: found[name] for name in kept if found.get(name, MISSING) is not MISSING}
    last = _last_line(script)
    if last is None:
        return None, assigned  # a block is worth null (spec §7.3)
    return found.get(last.target or LAST, MISSING), assigned


def _offset(text: str, pos: ast.Pos) -> int:
    """The character offset of a 1-based line and column."""
    lines = text.split("\n")
    return sum(len(line) + 1 for line in lines[: pos.line - 1]) + pos.column - 1
