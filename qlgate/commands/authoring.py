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
stderr. Exit status 1 when there is any error, so it can gate a deployment."""

TABLES = """List the tables the tables tree defines, each with the verbs it
maps; --json for a machine-readable list with each table's file."""

DESCRIBE = """Show how a table is called: for each verb its method and URI, its
required and optional parameters, defaults, headers, resultset and body (secrets
from the config are masked); --json for the same as data."""


def add_check_arguments(parser: argparse.ArgumentParser) -> None:
    add_workspace_options(parser)


def check(args: argparse.Namespace) -> int:
    from ..tables.registry import LoadProblem
    from ..workspace import Workspace

    engine = Workspace.load(tables=args.tables, routes=args.routes, config=args.config).engine
    problems = list(engine.problems)
    for route in engine.routes:
        try:
            engine.compile(route.source, base_dir=Path(route.file).parent, origin=route.file)
        except QlError as error:
            problems.append(LoadProblem(route.file, error.line or 1, error.column or 1, error.message))
    for problem in problems:
        print(problem)
    print(f"{len(engine.tables)} tables, {len(engine.routes)} routes, {len(problems)} error(s)", file=sys.stderr)
    return EXIT_FAILURE if problems else 0


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
            print("\n" + "\n".join(_mapping_lines(verb, described[verb])))
    return 0


def _mapping_lines(verb: str, mapping: dict[str, Any]) -> list[str]:
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
