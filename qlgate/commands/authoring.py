"""``qlgate check``, ``tables`` and ``describe``: the table and route author's
view of a workspace, compiled exactly as the gateway compiles it at start-up
but without calling any upstream (no emulator is started).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..errors import QlError
from .arguments import add_workspace_options
from .report import EXIT_FAILURE, warn

VERBS = ("select", "insert", "update", "delete")

CHECK = """Compile every table and every route as the gateway does at start-up
and print each error as FILE:LINE:COL: MESSAGE on stdout, then a count on
stderr. Also an error: a {config.…} token of a table or route file that names
nothing in the config (--config, else config/dev.json; with the eBay endpoints
the gateway would fill in; not checked without a config file), and a variable a route's script reads that it never assigns and the route
does not declare (path, query or default; a route taking a body may get others
from it and is not checked for this). Exit status 1 when there is any error, so
it can gate a deployment."""

TABLES = """List the tables the tables tree defines, each with the verbs it
maps; --json for a machine-readable list with each table's file."""

DESCRIBE = """Show how a table is called: for each verb its method and URI, its
required and optional parameters, defaults, headers, resultset and body (secrets
from the config are masked); --json for the same as data."""


def add_check_arguments(parser: argparse.ArgumentParser) -> None:
    add_workspace_options(parser)


def check(args: argparse.Namespace) -> int:
    from ..tables.config_refs import qlio_layout
    from ..tables.registry import LoadProblem
    from ..workspace import Workspace, default_dir

    engine = Workspace.load(tables=args.tables, routes=args.routes, config=args.config).engine
    problems = list(engine.problems)
    for route in engine.routes:
        try:
            compiled = engine.compile(route.source, base_dir=Path(route.file).parent, origin=route.file)
        except QlError as error:
            problems.append(LoadProblem(route.file, error.line or 1, error.column or 1, error.message))
            continue
        problems += _route_inputs(route, compiled.plan)
        problems += _route_tables(route, compiled.plan, engine)
    trees = [default_dir(args.tables, "tables"), default_dir(args.routes, "routes")]
    if engine.config.path is not None:
        served = _config_as_served(engine.config.data)
        found = _config_tokens([Path(tree) for tree in trees if tree], served)
        if qlio_layout(served):  # ql.io's layout: such a token stands empty, as ql.io filled it
            for problem in found:
                print(f"{problem} (warning: ql.io's config layout, so it stands empty)")
        else:
            problems += found
    else:
        print("no config file: {config.…} tokens not checked (give --config FILE)", file=sys.stderr)
    for problem in problems:
        print(problem)
    print(f"{len(engine.tables)} tables, {len(engine.routes)} routes, {len(problems)} error(s)", file=sys.stderr)
    return EXIT_FAILURE if problems else 0


def _route_inputs(route: Any, plan: Any) -> list[Any]:
    """The variables a route's script reads that it never assigns and the route
    does not declare (path segments, query map, defaults)."""
    from ..engine.free_names import unassigned
    from ..tables.registry import LoadProblem

    if route.method.lower() != "get":  # a body's members are inputs too (the gateway reads one for any
        return []  # method but GET), unknown here
    declared = {text for kind, text in route.segments if kind == "var"}
    declared |= {var for var, _ in route.query.values()} | set(route.defaults)
    return [
        LoadProblem(route.file, u.line, u.column, u.message(f"is not an input of route {route.pattern}"))
        for u in unassigned(plan.script, plan.assigned, declared)
    ]


def _route_tables(route: Any, plan: Any, engine: Any) -> list[Any]:
    """The tables a route's script names that the tables tree does not define (and the
    script neither defines nor assigns as a variable), each with the names meant: at
    run time a caller would get the deployer's mistake as a 400."""
    from ..lang import ast
    from ..lang.walk import walk
    from ..tables.registry import LoadProblem

    nodes = list(walk(list(plan.script.items) + ([plan.script.ret] if plan.script.ret is not None else [])))
    own = {node.name for node in nodes if isinstance(node, ast.CreateTable)} | set(plan.assigned)
    problems = []
    for node in nodes:
        if not isinstance(node, ast.Source) or node.name in own or "{" in node.name:
            continue
        try:
            engine.tables.get(node.name)
        except QlError as error:
            line, column = (node.pos.line, node.pos.column) if node.pos is not None else (1, 1)
            problems.append(LoadProblem(route.file, line, column, error.message))
    return problems


def _config_as_served(data: dict[str, Any]) -> dict[str, Any]:
    """The config as the gateway runs with it: with ``ebay`` set, the endpoints and
    credentials of its eBay environment filled in (the emulator's or eBay's)."""
    if "ebay" not in data:
        return data
    from ..ebay.emulation import emulator_config, merge_config
    from ..ebay.environments import resolved_environment, with_endpoints

    environment = resolved_environment(data)
    if environment == "emulator":
        return merge_config(data, emulator_config("http://127.0.0.1"))
    served = with_endpoints(data, environment)
    trading = served.get("tables", {}).get("ebay", {}).get("trading")
    if isinstance(trading, dict) and trading.get("auth"):
        # Trading on an OAuth credential (the IAF header): its tables' token stands empty
        trading.setdefault("eBayAuthToken", "")
    return served


def _config_tokens(trees: list[Path], config: dict[str, Any]) -> list[Any]:
    """Every ``{config.…}`` token of the ``.ql`` files under ``trees`` that names
    nothing in ``config``, with the nearest key that exists."""
    from ..tables.config_refs import resolves, suggestion, tokens_in
    from ..tables.registry import LoadProblem

    problems = []
    for tree in trees:
        for file in sorted(tree.rglob("*.ql")) if tree.is_dir() else ():
            try:
                text = file.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue  # reported by the compile above
            for found in tokens_in(text):
                if resolves(config, found.reference):
                    continue
                near = suggestion(config, found.reference)
                hint = f"; did you mean {{{near}}}?" if near else ""
                message = f"{{{found.reference}}} names nothing in the config{hint}"
                problems.append(LoadProblem(str(file), found.line, found.column, message))
    return problems


def add_tables_arguments(parser: argparse.ArgumentParser) -> None:
    add_workspace_options(parser, routes=False)
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def tables(args: argparse.Namespace) -> int:
    from ..workspace import Workspace

    engine = Workspace.load(tables=args.tables, config=args.config).engine
    warn(engine.table_problems)
    listed = engine.tables.tables()
    if args.json:
        print(json.dumps([{"name": t.name, "verbs": sorted(t.mappings), "file": t.file} for t in listed]))
        return 0
    for table in listed:
        print(f"{table.name}  ({', '.join(verb for verb in VERBS if verb in table.mappings)})")
    return 0


def add_describe_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", help="the table's name, or its end when that names one table")
    add_workspace_options(parser)
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def describe(args: argparse.Namespace) -> int:
    from ..tables.describe import describe_table
    from ..workspace import Workspace

    engine = Workspace.load(tables=args.tables, routes=args.routes, config=args.config).engine
    warn(engine.table_problems)
    table = engine.tables.get(args.name)
    described = describe_table(table, engine.routes, engine.config.secrets)
    if args.json:
        print(json.dumps(described, indent=2, ensure_ascii=False, default=str))
        return 0
    print(f"{table.name}" + (f"   ({table.file}:{table.line})" if table.file else ""))
    if table.doc:
        print("  " + table.doc.replace("\n", "\n  "))
    for verb in VERBS:
        if described.get(verb):
            print("\n" + "\n".join(mapping_lines(verb, described[verb])))
    return 0


def mapping_lines(verb: str, mapping: dict[str, Any]) -> list[str]:
    """One verb of ``describe``'s text output: its request, then a line per detail."""
    lines = [f"  on {verb}: {mapping['method'].upper()} {mapping['uri']}"]
    required = [p["name"] for p in mapping["params"] if p["required"]]
    optional = [p["name"] for p in mapping["params"] if not p["required"]]
    if required:
        lines.append(f"    required: {', '.join(required)}")
    if optional:
        lines.append(f"    optional: {', '.join(optional)}")
    for name, value in mapping["defaults"].items():
        lines.append(f"    default   {name} = {json.dumps(value) if not isinstance(value, str) else value}")
    for name, value in mapping["headers"].items():
        lines.append(f"    header    {name}: {value}")
    if "resultset" in mapping:
        lines.append(f"    resultset {mapping['resultset']}")
    if "body" in mapping:
        body = mapping["body"]
        foreach = f" foreach {body['foreach']}" if body.get("foreach") else ""
        lines.append(f"    body      {body.get('template')} ({body['type']}){foreach}")
    return lines
