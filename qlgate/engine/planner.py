"""Compilation: AST → plan. Checks what the grammar cannot (assignments,
unresolved symbols, alias rules, reference cycles) and derives each
statement's dependencies (spec §7.1).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..errors import CompileError
from ..lang import ast
from ..lang.paths import Path
from ..lang.templates import Template
from ..lang.walk import walk

WRITES = (ast.Insert, ast.Update, ast.Delete)


@dataclass
class Plan:
    script: ast.Script
    assigned: frozenset[str]  # every variable assigned anywhere
    requires: dict[str, ast.Require]  # variable → require()
    inline_tables: tuple[ast.CreateTable, ...]
    deps: dict[int, frozenset[str]]  # id(choice) → variables it waits for
    block_vars: dict[int, frozenset[str]]  # id(block/branch items) → variables assigned inside
    write_after: dict[int, int]  # id(line) → id(previous table write line)
    write_lines: frozenset[int]
    returned_refs: tuple[ast.VarRef, ...]
    final_item: Any  # value of the script without a return
    lines: dict[int, ast.Line] = field(default_factory=dict)
    warnings: tuple[str, ...] = ()  # compile warnings (e.g. a near-miss variable name)


def references(choice: Any) -> set[str]:
    """Every leading word a choice refers to (filtered to assigned names later): the
    sources it reads or writes, the heads of variable paths among its operands, the
    names in its quoted text and JSON, the modules of the UDFs it calls. Row paths
    are not references: columns, the left side of conditions, the arguments of UDFs
    in columns and conditions. A table the script defines refers to nothing (its
    templates are read when it is called)."""
    if isinstance(choice, ast.CreateTable):
        return set()
    out: set[str] = set()
    if isinstance(choice, ast.UdfCall):  # called as a statement: its path arguments are variables
        out.update(arg.head for arg in choice.args if isinstance(arg, Path) and arg.head)

    def into(node: Any) -> bool:
        kind = type(node)
        if kind is ast.UdfCall:
            return node is choice
        return node.templated if kind is ast.JsonLiteral else True

    for node in walk(choice, into=into):
        names_of = _NAMES_OF.get(type(node))
        if names_of is not None:
            out.update(names_of(node))
    return out


# the names each kind of node refers to; other nodes refer to none themselves
_NAMES_OF: dict[type, Callable[[Any], Iterable[str]]] = {
    Template: Template.names,
    ast.Source: lambda source: (source.name,),
    ast.PathOperand: lambda operand: (operand.path.head,) if operand.path.head else (),
    ast.UdfCall: lambda call: (call.module,),
    ast.VarRef: lambda ref: (ref.name,),
}


def cond_names(cond: ast.Cond) -> set[str]:
    """The variables an ``if`` or ``catch`` condition reads."""
    return {node.name for node in walk(cond) if isinstance(node, ast.CondVar)}


class _Compiler:
    def __init__(self, script: ast.Script):
        self.script = script
        self.assigners: dict[str, list[tuple[ast.Line | ast.Throw, tuple]]] = {}
        self.requires: dict[str, ast.Require] = {}
        self.inline: list[ast.CreateTable] = []
        self.deps: dict[int, frozenset[str]] = {}
        self.block_vars: dict[int, frozenset[str]] = {}
        self.write_after: dict[int, int] = {}
        self.write_lines: set[int] = set()
        self.lines: dict[int, ast.Line] = {}
        self.returned: list[ast.VarRef] = []
        self.warnings: list[str] = []
        self._folded_of: frozenset[str] | None = None  # the assigned names ``_folded`` folds
        self._folded: dict[str, str] = {}

    # ---- pass 1: who assigns what, and where (branch path for the if/else exception)
    def collect(self, items: tuple, branch: tuple) -> set[str]:
        names: set[str] = set()
        for item in items:
            if isinstance(item, ast.Line):
                self.lines[id(item)] = item
                if item.target:
                    self._assign(item.target, item, branch)
                    names.add(item.target)
                    for choice in item.choices:
                        if isinstance(choice, ast.Require):
                            self.requires[item.target] = choice
                for choice in item.choices:
                    if isinstance(choice, ast.CreateTable):
                        self.inline.append(choice)
            elif isinstance(item, ast.Throw):
                self.assigners.setdefault(item.name, []).append((item, (*branch, "throw")))
                names.add(item.name)
            elif isinstance(item, ast.IfBlock):
                then = self.collect(item.then, (*branch, id(item), "then"))
                other = self.collect(item.orelse or (), (*branch, id(item), "else"))
                self.block_vars[id(item.then)] = frozenset(then)
                self.block_vars[id(item.orelse or ())] = frozenset(other)
                self.block_vars[id(item)] = frozenset(then | other)
                names |= then | other
            elif isinstance(item, ast.TryBlock):
                inner = self.collect(item.body, (*branch, id(item), "try"))
                self.block_vars[id(item.body)] = frozenset(inner)
                all_names = set(inner)
                for c in item.catches:
                    caught = self.collect(c.body, (*branch, id(item), id(c)))
                    self.block_vars[id(c.body)] = frozenset(caught)
                    all_names |= caught
                if item.final:
                    fin = self.collect(item.final, (*branch, id(item), "finally"))
                    self.block_vars[id(item.final)] = frozenset(fin)
                    all_names |= fin
                self.block_vars[id(item)] = frozenset(all_names)
                names |= all_names
        return names

    def _assign(self, name: str, line: ast.Line, branch: tuple) -> None:
        previous = self.assigners.setdefault(name, [])
        for other, other_branch in previous:
            if isinstance(other, ast.Throw):
                continue
            if not _exclusive(branch, other_branch):
                raise CompileError(
                    f"variable '{name}' is assigned twice (lines {other.pos.line} and {line.pos.line})",
                    line=line.pos.line,
                    column=line.pos.column,
                )
        previous.append((line, branch))

    # ---- pass 2: dependencies, checks, write order
    def analyse(
        self, items: tuple, assigned: frozenset[str], last_write: list[int | None], thrown: set[str] | None = None
    ) -> None:
        for item in items:
            if isinstance(item, ast.Line):
                for choice in item.choices:
                    self.check_choice(choice, assigned, item)
                    refs = references(choice)
                    # (refs & assigned) first: ``assigned - {…}`` would copy every name per statement
                    self.deps[id(choice)] = frozenset((refs & assigned) - {item.target})
                    self.near_misses(refs - assigned, assigned, item.pos)
                    if item.target and item.target in refs and not isinstance(choice, ast.CreateTable):
                        raise CompileError(
                            f"'{item.target}' refers to itself", line=item.pos.line, column=item.pos.column
                        )
                if any(isinstance(c, WRITES) and c.source.name not in assigned for c in item.choices):
                    self.write_lines.add(id(item))
                    if last_write[0] is not None:
                        self.write_after[id(item)] = last_write[0]
                    last_write[0] = id(item)
            elif isinstance(item, ast.Throw):
                if thrown is not None:
                    thrown.add(item.name)
            elif isinstance(item, ast.IfBlock):
                self.deps[id(item)] = frozenset(cond_names(item.cond) & assigned)
                self.analyse(item.then, assigned, last_write, thrown)
                self.analyse(item.orelse or (), assigned, last_write, thrown)
            elif isinstance(item, ast.TryBlock):
                inner_thrown: set[str] = set()
                self.analyse(item.body, assigned, last_write, inner_thrown)
                for c in item.catches:
                    missing = cond_names(c.cond) - inner_thrown
                    if missing:
                        raise CompileError(
                            f"catch condition uses {', '.join(sorted(missing))}, never thrown in its try block",
                            line=c.pos.line,
                            column=c.pos.column,
                        )
                    self.analyse(c.body, assigned, last_write, thrown)
                if item.final:
                    self.analyse(item.final, assigned, last_write, thrown)
                if thrown is not None:
                    thrown |= inner_thrown

    def near_misses(self, unknown: set[str], assigned: frozenset[str], pos: ast.Pos) -> None:
        """Not errors (request parameters and config resolve at run time), but a name
        that differs from an assigned variable only in case is most likely a typo.
        The folded names are made once per set of assigned names, not per statement: a
        script of n statements would otherwise compile in n² (a 300 KB one took 30 s)."""
        if not unknown:
            return
        if self._folded_of is not assigned:
            self._folded_of, self._folded = assigned, {a.lower(): a for a in assigned}
        by_lower = self._folded
        for name in sorted(unknown):
            match = by_lower.get(name.lower())
            if match and match != name:
                self.warnings.append(f"line {pos.line}: '{name}' is never assigned; did you mean '{match}'?")

    def check_choice(self, choice: Any, assigned: frozenset[str], line: ast.Line) -> None:
        if isinstance(choice, ast.Select):
            self.check_select(choice, assigned)
        elif isinstance(choice, ast.UdfCall):
            self.check_udf(choice)
        elif isinstance(choice, ast.Update) and choice.source.name in assigned:
            raise CompileError(
                f"cannot update variable '{choice.source.name}'", line=choice.pos.line, column=choice.pos.column
            )
        elif isinstance(choice, ast.Delete):
            self.check_where(choice.where, choice.pos)
        elif isinstance(choice, ast.VarRef):
            self.returned.append(choice)

    def check_udf(self, call: ast.UdfCall) -> None:
        if call.module not in self.requires:
            raise CompileError(
                f"'{call.module}.{call.function}' is not a UDF: '{call.module}' is not bound by require()",
                line=call.pos.line,
                column=call.pos.column,
            )

    def check_where(self, where: tuple, pos: ast.Pos) -> None:
        for cond in where:
            if isinstance(cond, ast.UdfCondition):
                self.check_udf(cond.call)

    def check_select(self, select: ast.Select, assigned: frozenset[str]) -> None:
        pos = select.pos
        if len(select.sources) > 2:
            raise CompileError("a select takes at most two sources", line=pos.line, column=pos.column)
        cols = select.columns or ()
        aliased = [c.alias is not None for c in cols]
        if any(aliased) and not all(aliased):
            raise CompileError("either all columns have 'as' aliases or none do", line=pos.line, column=pos.column)
        for col in cols:
            if col.udf:
                self.check_udf(col.udf)
        self.check_where(select.where, pos)
        for cond in select.where:
            if isinstance(cond, ast.InSelectCondition):
                self.check_select(cond.select, assigned)
        if len(select.sources) == 2:
            aliases = [s.alias for s in select.sources]
            if not all(aliases) or aliases[0] == aliases[1]:
                raise CompileError("a join needs a distinct alias on both sources", line=pos.line, column=pos.column)
            for col in cols:
                head = col.path.head if col.path else None
                if col.path is not None and head not in aliases:
                    raise CompileError(
                        f"column '{col.path}' must start with one of the aliases {aliases[0]}, {aliases[1]}",
                        line=pos.line,
                        column=pos.column,
                    )
            if not any(is_join_condition(c, aliases) for c in select.where):
                raise CompileError(
                    f"a join needs a condition relating the two sources (e.g. {aliases[1]}.id = {aliases[0]}.id)",
                    line=pos.line,
                    column=pos.column,
                )

    # ---- cycles
    def check_cycles(self, assigned: frozenset[str]) -> None:
        graph: dict[str, set[str]] = {}
        pos: dict[str, ast.Pos] = {}
        for name, entries in self.assigners.items():
            for line, _ in entries:
                if isinstance(line, ast.Line):
                    pos.setdefault(name, line.pos)
                    for choice in line.choices:
                        graph.setdefault(name, set()).update(self.deps.get(id(choice), ()))
        # a write waits for the previous write: fold that into the variable graph
        for line_id, prev_id in self.write_after.items():
            writer, prev = self.lines.get(line_id), self.lines[prev_id]
            if writer is not None and writer.target:  # the return (not a line) has no dependants
                prev_deps = (
                    {prev.target} if prev.target else set().union(*(self.deps.get(id(c), set()) for c in prev.choices))
                )
                graph.setdefault(writer.target, set()).update(prev_deps)
        state: dict[str, int] = {}
        stack: list[str] = []

        def visit(name: str) -> None:
            state[name] = 1
            stack.append(name)
            for dep in sorted(graph.get(name, ())):
                if state.get(dep) == 1:
                    cycle = [*stack[stack.index(dep) :], dep]
                    where = pos.get(name)
                    raise CompileError(
                        "reference cycle: " + " → ".join(cycle),
                        line=where.line if where else None,
                        column=where.column if where else None,
                    )
                if dep not in state:
                    visit(dep)
            stack.pop()
            state[name] = 2

        for name in sorted(graph):
            if name not in state:
                visit(name)


def _exclusive(a: tuple, b: tuple) -> bool:
    """True when two branch paths lie in the two arms of the same if/else."""
    for x, y in zip(a, b):
        if x != y:
            return {x, y} == {"then", "else"}
    return False


def is_join_condition(cond: Any, aliases: list) -> bool:
    """``a.x = b.y`` with the two sides on the two different aliases of a join."""
    return (
        isinstance(cond, ast.EqCondition)
        and isinstance(cond.operand, ast.PathOperand)
        and cond.lhs.head in aliases
        and cond.operand.path.head in aliases
        and cond.lhs.head != cond.operand.path.head
    )


def compile_script(script: ast.Script) -> Plan:
    c = _Compiler(script)
    c.collect(script.items, ())
    assigned = frozenset(c.assigners)
    last_write: list[int | None] = [None]
    c.analyse(script.items, assigned, last_write)
    if script.ret is not None:
        for choice in script.ret.choices:
            c.check_choice(choice, assigned, None)  # type: ignore[arg-type]
            c.deps[id(choice)] = frozenset(references(choice) & assigned)
            c.near_misses(references(choice) - assigned, assigned, script.ret.pos)
        writes = any(isinstance(ch, WRITES) and ch.source.name not in assigned for ch in script.ret.choices)
        if writes and last_write[0] is not None:
            c.write_after[id(script.ret)] = last_write[0]
    c.check_cycles(assigned)
    final = None
    if script.ret is None:
        for item in reversed(script.items):
            if isinstance(item, ast.Line) and all(isinstance(ch, ast.CreateTable) for ch in item.choices):
                continue
            final = item
            break
    return Plan(
        script,
        assigned,
        c.requires,
        tuple(c.inline),
        c.deps,
        c.block_vars,
        c.write_after,
        frozenset(c.write_lines),
        tuple(c.returned),
        final,
        c.lines,
        tuple(c.warnings),
    )
