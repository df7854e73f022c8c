"""A plan as text: each statement with the variables it waits for and the write
it follows, blocks indented, then what the script as a whole assigns, defines
and returns. The dependency graph the executor runs, made readable.

Used by the planner's golden files (``tests/engine/goldens/plans``), where a
change to the planner shows as a diff a reviewer can read; handy at a prompt too:

    from qlgate.engine.plan_text import render_plan
    print(render_plan(compile_script(parse(text))))

or ``python3 -m qlgate.engine.plan_text script.ql``.
"""

from __future__ import annotations

import re
from typing import Any

from ..lang import ast
from .planner import WRITES, Plan

_KINDS = {
    ast.JsonLiteral: "json",
    ast.VarRef: "name",
    ast.UdfCall: "udf",
    ast.CreateTable: "create table",
    ast.ShowTables: "show tables",
    ast.ShowRoutes: "show routes",
    ast.DescribeRoute: "describe route",
}
_STEP = "    "


def render_plan(plan: Plan) -> str:
    out: list[str] = []
    _items(plan, plan.script.items, "", out)
    ret = plan.script.ret
    if ret is not None:
        out.append(f"{ret.pos.line}: {_one_line(ret.text)}")
        writes = any(isinstance(c, WRITES) and c.source.name not in plan.assigned for c in ret.choices)
        out += _choices(plan, ret.choices, _STEP, plan.write_after.get(id(ret)), write=writes)
    out.append("--")
    lines = [
        ("assigned", sorted(plan.assigned)),
        ("requires", [f"{name} = {req.module}" for name, req in sorted(plan.requires.items())]),
        ("inline tables", [f"{t.name} (line {t.pos.line})" for t in plan.inline_tables]),
        ("bare names returned", [f"{r.name} (line {r.pos.line})" for r in plan.returned_refs]),
        ("value without return", [_final(plan.final_item)] if ret is None else []),
        ("warnings", list(plan.warnings)),
    ]
    out += [f"{label}: {', '.join(values) if values else '-'}" for label, values in lines]
    return "\n".join(out) + "\n"


def _items(plan: Plan, items: tuple, indent: str, out: list[str]) -> None:
    for item in items:
        if isinstance(item, ast.Line):
            out.append(f"{indent}{item.pos.line}: {_one_line(item.text)}")
            after = plan.write_after.get(id(item)) if id(item) in plan.write_lines else None
            out += _choices(plan, item.choices, indent + _STEP, after, write=id(item) in plan.write_lines)
        elif isinstance(item, ast.Throw):
            out.append(f"{indent}{item.pos.line}: throw ({item.name})")
        elif isinstance(item, ast.IfBlock):
            out.append(f"{indent}{item.pos.line}: if {_cond(item.cond, top=True)}{_waits(plan, item)}")
            _branch(plan, "then", item.then, indent, out)
            if item.orelse is not None:
                _branch(plan, "else", item.orelse, indent, out)
        elif isinstance(item, ast.TryBlock):
            out.append(f"{indent}{item.pos.line}: try")
            _branch(plan, "body", item.body, indent, out)
            for catch in item.catches:
                _branch(plan, f"catch {_cond(catch.cond, top=True)}", catch.body, indent, out)
            if item.final is not None:
                _branch(plan, "finally", item.final, indent, out)


def _branch(plan: Plan, label: str, items: tuple, indent: str, out: list[str]) -> None:
    assigns = sorted(plan.block_vars.get(id(items), ()))
    out.append(f"{indent}{_STEP}{label}" + (f"  assigns {', '.join(assigns)}" if assigns else ""))
    _items(plan, items, indent + _STEP * 2, out)


def _choices(plan: Plan, choices: tuple, indent: str, after: int | None, *, write: bool = False) -> list[str]:
    out = []
    for choice in choices:
        out.append(f"{indent}{_kind(choice)}{_waits(plan, choice)}")
    if write or after is not None:
        previous = plan.lines.get(after) if after is not None else None
        out.append(f"{indent}write" + (f", after line {previous.pos.line}" if previous is not None else ", first"))
    return out


def _waits(plan: Plan, node: Any) -> str:
    names = sorted(plan.deps.get(id(node), ()))
    return f"  waits for {', '.join(names)}" if names else ""


def _kind(choice: Any) -> str:
    kind = _KINDS.get(type(choice), type(choice).__name__.lower())
    if isinstance(choice, ast.Select):
        sources = ", ".join(s.name + (f" as {s.alias}" if s.alias else "") for s in choice.sources)
        return f"select from {sources}"
    if isinstance(choice, (ast.Insert, ast.Update, ast.Delete)):
        return f"{kind} {choice.source.name}"
    if isinstance(choice, ast.VarRef):
        return f"name {choice.name}"
    if isinstance(choice, ast.UdfCall):
        return f"udf {choice.module}.{choice.function}"
    return kind


def _cond(cond: ast.Cond, top: bool = False) -> str:
    """A condition as written, parenthesised where it nests (``(a && !(b || c))``)."""
    if isinstance(cond, ast.CondVar):
        text = cond.name
    elif isinstance(cond, ast.CondNot):
        text = "!" + _cond(cond.operand)
    else:
        joiner = " && " if isinstance(cond, ast.CondAnd) else " || "
        text = joiner.join(_cond(c) for c in cond.operands)
        if not top:
            text = f"({text})"
    return f"({text})" if top else text


def _final(item: Any) -> str:
    if item is None:
        return "none ({})"
    line = getattr(getattr(item, "pos", None), "line", "?")
    return f"line {line}"


def _one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().rstrip(";").rstrip()


if __name__ == "__main__":
    import sys

    from ..lang.parser import parse
    from .planner import compile_script

    for name in sys.argv[1:]:
        with open(name, encoding="utf-8") as f:
            print(render_plan(compile_script(parse(f.read(), origin=name))), end="")
