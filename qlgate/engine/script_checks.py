"""What the engine checks of a parsed script against its tables, at compile time:
the credentials a caller's statements would use, the tables a lazily loaded
registry must compile first, and whether the script's runs may share decoded
answers with other runs. Each reads the script and the tables, and nothing of
a run."""

from __future__ import annotations

from typing import Any

from ..errors import QlError
from ..lang import ast
from ..lang.walk import walk
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
