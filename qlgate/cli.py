"""The ``qlgate`` command. Its contract is exact (other tools depend on it):
results as JSON on stdout with exit 0; failures as a JSON object with an
``"error"`` member on stderr and a non-zero exit.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any, Sequence

from ._version import __version__
from .errors import QlError, QlSyntaxError

EXIT_FAILURE = 1
EXIT_USAGE = 2


class UsageError(QlError):
    status = 400


def _free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def parse_var(text: str) -> tuple[str, Any]:
    """``NAME=VALUE``: VALUE is JSON when it parses, else a string."""
    name, sep, value = text.partition("=")
    if not sep or not re.fullmatch(r"[A-Za-z$:][A-Za-z0-9_:]*", name):
        raise UsageError(f"bad --var {text!r}: expected NAME=VALUE with NAME a single word")
    try:
        return name, json.loads(value)
    except ValueError:
        return name, value


def _fail(error: QlError, *, pretty: bool = True) -> int:
    if pretty and isinstance(error, QlSyntaxError):
        print(error.pretty(), file=sys.stderr)
    out = error.to_dict()
    print(json.dumps(out, ensure_ascii=False, default=str), file=sys.stderr)
    return EXIT_FAILURE


def _report_problems(problems: Sequence[Any]) -> None:
    for problem in problems:
        print(f"warning: {problem}", file=sys.stderr)


# ------------------------------------------------------------------ run

async def _run(args: argparse.Namespace) -> int:
    from .values import dump_json
    from .workspace import Workspace

    if args.expression is not None:
        script, origin, base_dir = args.expression, "<-e>", Path.cwd()
    elif args.script:
        path = Path(args.script)
        try:
            script = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise UsageError(f"cannot read script {path}: {getattr(e, 'strerror', None) or e}") from None
        origin, base_dir = str(path), path.resolve().parent
    else:
        raise UsageError("give a SCRIPT_FILE or -e 'SCRIPT TEXT'")
    context = dict(parse_var(v) for v in args.var or ())
    # the deployer's own script: it may load code beside it and in the tables tree
    async with await Workspace.open(tables=args.tables, routes=args.routes, config=args.config) as workspace:
        _report_problems(workspace.problems)
        try:
            result = await workspace.engine.execute(script, context=context, base_dir=base_dir, origin=origin)
        except QlError as error:
            if args.diagnostics and getattr(error, "diagnostics", None) is not None:
                print(error.diagnostics.render(), file=sys.stderr)
            for warning in dict.fromkeys(getattr(error, "warnings", ())):
                print(f"warning: {warning}", file=sys.stderr)
            return _fail(error)
    sys.stdout.write(dump_json(result.value) + "\n")
    sys.stdout.flush()
    for warning in dict.fromkeys(result.warnings):
        print(f"warning: {warning}", file=sys.stderr)
    if args.diagnostics:
        print(result.diagnostics.render(), file=sys.stderr)
    return 0


# ------------------------------------------------------------------ check / tables / describe

def _check(args: argparse.Namespace) -> int:
    """Every table and route compiled as the gateway compiles them at start-up."""
    from .tables.registry import LoadProblem
    from .workspace import Workspace

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


def _tables(args: argparse.Namespace) -> int:
    from .workspace import Workspace

    workspace = Workspace.load(tables=args.tables, config=args.config)
    registry = workspace.engine.tables
    _report_problems(workspace.engine.table_problems)
    if args.json:
        print(json.dumps([{"name": t.name, "verbs": sorted(t.mappings), "file": t.file} for t in registry.tables()]))
        return 0
    for table in registry.tables():
        print(f"{table.name}  ({', '.join(k for k in ('select', 'insert', 'update', 'delete') if k in table.mappings)})")
    return 0


def _describe(args: argparse.Namespace) -> int:
    from .engine.introspect import describe_table
    from .workspace import Workspace

    engine = Workspace.load(tables=args.tables, routes=args.routes, config=args.config).engine
    _report_problems(engine.table_problems)
    table = engine.tables.get(args.name)
    described = describe_table(table, engine.routes, engine.config.secrets)
    if args.json:
        print(json.dumps(described, indent=2, ensure_ascii=False, default=str))
        return 0
    print(f"{table.name}" + (f"   ({table.file}:{table.line})" if table.file else ""))
    if table.doc:
        print("  " + table.doc.replace("\n", "\n  "))
    for kind in ("select", "insert", "update", "delete"):
        m = described.get(kind)
        if not m:
            continue
        print(f"\n  on {kind}: {m['method'].upper()} {m['uri']}")
        required = [p["name"] for p in m["params"] if p["required"]]
        optional = [p["name"] for p in m["params"] if not p["required"]]
        if required:
            print(f"    required: {', '.join(required)}")
        if optional:
            print(f"    optional: {', '.join(optional)}")
        for name, value in m["defaults"].items():
            print(f"    default   {name} = {json.dumps(value) if not isinstance(value, str) else value}")
        for name, value in m["headers"].items():
            print(f"    header    {name}: {value}")
        if "resultset" in m:
            print(f"    resultset {m['resultset']}")
        if "body" in m:
            body = m["body"]
            print(f"    body      {body.get('template')} ({body['type']})"
                  + (f" foreach {body['foreach']}" if body.get("foreach") else ""))
    return 0


# ------------------------------------------------------------------ entry point

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="qlgate", description="Query gateway for marketplace APIs.")
    parser.add_argument("--version", action="version", version=f"qlgate {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p: argparse.ArgumentParser, routes: bool = True) -> None:
        p.add_argument("--tables", metavar="DIR", help="tables directory (default: ./tables)")
        if routes:
            p.add_argument("--routes", metavar="DIR", help="routes directory (default: ./routes)")
        p.add_argument("--config", metavar="FILE", help="config file (default: config/dev.json)")

    run = sub.add_parser("run", help="run a script and print its result as JSON")
    run.add_argument("script", nargs="?", metavar="SCRIPT_FILE")
    run.add_argument("-e", dest="expression", metavar="SCRIPT", help="script text instead of a file")
    common(run)
    run.add_argument("--var", action="append", metavar="NAME=VALUE", help="a script variable (JSON or text)")
    run.add_argument("--diagnostics", action="store_true", help="print upstream calls and timings to stderr")

    check = sub.add_parser("check", help="compile every table and route; report errors as file:line:col")
    common(check)

    tables = sub.add_parser("tables", help="list tables")
    common(tables, routes=False)
    tables.add_argument("--json", action="store_true")

    describe = sub.add_parser("describe", help="show a table's verbs, URI, params, defaults, headers, body")
    describe.add_argument("name")
    common(describe)
    describe.add_argument("--json", action="store_true")

    sandbox = sub.add_parser("sandbox", help="run the built-in eBay emulator (Finding, Shopping, Trading)")
    sandbox.add_argument("--host", default="127.0.0.1")
    sandbox.add_argument("--port", type=int, default=8642, help="0 picks a free port")
    sandbox.add_argument("--data", metavar="FILE", help="seed data (users, listings) instead of the built-in set")
    sandbox.add_argument("--write-config", metavar="FILE",
                         help="write a config pointing every eBay table at this emulator")
    sandbox.add_argument("--latency", type=int, default=0, metavar="MS", help="delay every answer by MS")
    sandbox.add_argument("--control-token", metavar="TOKEN",
                         help="the token the /_sandbox/* control endpoints require (default: "
                              "$QLGATE_SANDBOX_TOKEN, else a random one printed at start-up)")

    serve = sub.add_parser("serve", help="run the HTTP gateway")
    common(serve)
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=3000)
    serve.add_argument("--disable-q", action="store_true", help="do not serve ad-hoc /q scripts")
    serve.add_argument("--disable-console", action="store_true", help="do not serve the web console at /console")
    serve.add_argument("--workers", type=int, default=1, metavar="N", help="serve from N processes on one port")
    serve.add_argument("--zookeeper", metavar="HOST:PORT[,...]",
                       help="accept jobs for this ZooKeeper cluster (default: run them in-process)")
    serve.add_argument("--insecure", action="store_true",
                       help="without gateway.auth, still serve a non-loopback --host (every client may call)")

    from .jobs.cli import add_parsers
    add_parsers(sub, common)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    import logging
    logging.basicConfig(level=logging.ERROR, format="qlgate: %(levelname)s: %(message)s")
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "run":
            from .loop import run
            return run(_run(args))
        if args.command == "check":
            return _check(args)
        if args.command == "tables":
            return _tables(args)
        if args.command == "describe":
            return _describe(args)
        if args.command == "sandbox":
            from .loop import run
            from .sandbox.cli import run_sandbox
            return run(run_sandbox(args))
        if args.command == "serve":
            from .server.app import serve
            return serve(args)
        if args.command == "worker":
            from .jobs.cli import run_worker
            return run_worker(args)
        if args.command == "limiter":
            from .jobs.cli import run_limiter
            return run_limiter(args)
        if args.command == "jobs":
            from .jobs.cli import run_jobs
            return run_jobs(args)
    except QlError as error:
        return _fail(error)
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # a bug: still a JSON error, never a bare traceback
        import logging
        logging.getLogger("qlgate").debug("internal error", exc_info=error)
        return _fail(QlError(f"internal error: {type(error).__name__}: {error}", status=500))
    parser.error(f"unknown command {args.command}")
    return EXIT_USAGE


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
