"""What the engine checks of a parsed script against its tables, at compile time:
the credentials a caller's statements would use, the tables a lazily loaded
registry must compile first, where names no table reads (``check_param_names``), and
whether the script's runs may share decoded
answers with other runs. Each reads the script and the tables, and nothing of
a run."""

from __future__ import annotations

import re
from collections.abc import Set
from typing import Any

from ..errors import QlError, UnknownParameter
from ..lang import ast
from ..lang.walk import walk
from ..suggest import nearest
from ..tables.model import Table
from ..tables.param_names import unknown_name
from ..tables.registry import TableRegistry
from ..trust import Trust


def check_credentials(tables: TableRegistry, parsed: ast.Script, trust: Trust) -> None:
    """Refuse a caller's statement on a table whose ``using auth`` names a credential
    ``gateway.adhoc.credentials`` does not open to callers (a patch asking for one is
    refused when it asks, at run time)."""
    own = {node.target for node in walk(parsed) if isinstance(node, ast.Line) and node.target} | {
        node.name for node in walk(parsed) if isinstance(node, ast.CreateTable)
    }
    for node in walk(parsed):
        if not isinstance(node, (ast.Select, ast.Insert, ast.Update, ast.Delete)):
            continue
        kind = type(node).__name__.lower()
        for source in node.sources if isinstance(node, ast.Select) else (node.source,):
            if source.name in own:  # a variable, or a table of the script's own
                continue
            try:
                table = tables.find(source.name)
            except QlError:
                continue  # ambiguous: the run says so
            mapping = table.mappings.get(kind) if table is not None else None
            if mapping is not None and mapping.credential is not None:
                line = source.pos.line if source.pos is not None else None
                trust.check_credential(mapping.credential, table.name if table else None, line)


def check_param_names(tables: TableRegistry, parsed: ast.Script, variables: Set[str]) -> list[str]:
    """Refuse a where name that the table of a select or delete never reads when it is a
    near miss of one it does (``qq`` for ``q``): sent, it would fill nothing and come back
    as the API's own error (eBay's 400), or as an answer unfiltered by it. Before the run,
    so that nothing at all is sent. A name near none of the table's is a warning, returned,
    not an error: ql.io let a where clause name what the table does not read (its own tests
    do, and the conformance suite with them), and such scripts keep running. Joins are left
    to the run (each condition belongs to one side by its alias); what a table reads is
    ``tables.param_names``'s to say."""
    from .operands import param_name  # the run's own rule for a condition's parameter name

    warnings: list[str] = []
    for node in walk(parsed):
        if isinstance(node, ast.Select) and len(node.sources) == 1:
            source, where = node.sources[0], node.where
        elif isinstance(node, ast.Delete):
            source, where = node.source, node.where
        else:
            continue
        if source.name in variables or not where:
            continue
        try:
            table = tables.find(source.name)
        except QlError:
            continue  # ambiguous: the run says so
        mapping = table.mappings.get(type(node).__name__.lower()) if table is not None else None
        if table is None or mapping is None:
            continue
        for cond in where:
            if isinstance(cond, ast.UdfCondition):
                continue
            name = param_name(cond.lhs, source.alias)
            names = unknown_name(mapping, name)
            if names is None:
                continue
            shown = sorted(names, key=str.lower)
            listed = ", ".join(shown[:15]) + (", …" if len(shown) > 15 else "")
            line, column = _where_in(node, cond.lhs.text)
            meant = nearest(name, names)
            if meant is None:
                warnings.append(
                    f"line {line}: '{name}' is not a parameter of {table.name}, which takes {listed}; not sent"
                )
                continue
            raise UnknownParameter(
                f"'{name}' is not a parameter of {table.name}; did you mean '{meant}'? (it takes {listed})",
                line=line,
                column=column,
                param=name,
                table=table.name,
                suggestion=meant,
            )
    return warnings


def _where_in(node: ast.Select | ast.Delete, written: str) -> tuple[int, int]:
    """Where ``written`` (a condition's left side) stands in the statement's where clause;
    the statement's start when it cannot be found in its text."""
    text, pos = node.text, node.pos
    clause = re.search(r"\bwhere\b", text)
    found = re.search(r"(?<![\w.$])" + re.escape(written) + r"\s*(=|\bin\b)", text[clause.end() :]) if clause else None
    if clause is None or found is None:
        return pos.line, pos.column
    offset = clause.end() + found.start()
    before = text[:offset]
    if "\n" not in before:
        return pos.line, pos.column + offset
    return pos.line + before.count("\n"), offset - before.rfind("\n")


def load_named(tables: TableRegistry, parsed: ast.Script) -> None:
    """Compile now the tables a script names (a lazily loaded registry): their load
    problems are known before it runs, and its run finds them ready."""
    for node in walk(parsed):
        if isinstance(node, ast.Select):
            sources: tuple[Any, ...] = tuple(node.sources)
        elif isinstance(node, (ast.Insert, ast.Update, ast.Delete)):
            sources = (node.source,)
        else:
            continue
        for source in sources:
            try:
                tables.find(source.name)
            except QlError:
                pass  # ambiguous: the run says so


def shares_safely(tables: TableRegistry, parsed: ast.Script) -> bool:
    """May the runs of this script read answers decoded for other runs' identical calls
    (``run_compiled``'s ``shares_answers``)? Not if it hands values to deployer Python
    code, which may change them in place: a UDF, or the patch, ``auth using`` module or
    Jinja body of a table it calls (a hook sees the run's variables and parameters, a
    template its parameters). The engine itself changes no value in place."""
    for node in walk(parsed):
        if isinstance(node, (ast.Require, ast.UdfCall, ast.UdfCondition)):
            return False
        if not isinstance(node, ast.Source):
            continue
        try:
            table = tables.find(node.name)
        except QlError:  # ambiguous: the run will say so
            return False
        if table is None:
            continue  # a variable (or an unknown table, an error at run time)
        for mapping in table.mappings.values():
            body = mapping.body
            if mapping.patch is not None or mapping.auth is not None or (body is not None and body.engine == "jinja"):
                return False
    return True


def declared_lifecycle(tables: TableRegistry, parsed: ast.Script) -> tuple[Table, ...]:
    """The tables the script names that declare ``deprecated`` or ``retired``
    (``tables/lifecycle.py``): each run checks them, against its own day, before it
    sends anything. Empty for nearly every script: the run's start costs nothing."""
    found: dict[str, Table] = {}
    for node in walk(parsed):
        if not isinstance(node, ast.Source):
            continue
        try:
            table = tables.find(node.name)
        except QlError:  # ambiguous: the run says so
            continue
        if table is not None and (table.retired is not None or table.deprecated is not None):
            found[table.name] = table
    return tuple(found.values())
