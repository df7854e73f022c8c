"""``qlgate probe``: does each table still work against its upstream? Tables rot
quietly — a partner changes a field's name, retires a call, moves a host — and
the first to notice is a user. A probe runs each table's ``-- Example:``
statement (the one the console's "Try it" runs), within a budget of upstream
calls per API type and a timeout per example, and reports for each table its
status, the time it took and whether the answer's *shape* (its paths and their
JSON types, list items folded into one) is the one it had the last time it
answered: a shape that lost paths is a table that broke without an error.

The last good shapes are kept in a JSON file (``--state``), written after each
probe. Only read-only examples run: an example that would insert, update or
delete is skipped, since a probe must never change anything upstream.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .arguments import UsageError, add_workspace_options
from .report import EXIT_FAILURE, EXIT_OK

DESCRIPTION = """Run each table's `-- Example:` statement against its upstream and report, per table:
ok, changed (it answered, but paths its last good answer had are gone) or failed (the error), with
the time it took. At most --budget upstream calls per API type; an example that writes is never
run. The last good shapes are kept in --state. Exit status 1 when a table failed or changed."""

SHAPE_LIMIT = 500  # paths kept of one answer: enough to tell a change, bounded for a huge one


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_workspace_options(parser)
    parser.add_argument("prefixes", nargs="*", metavar="PREFIX", help="only tables whose names start with these")
    parser.add_argument("--budget", type=int, default=20, help="upstream calls per API type at most (default 20)")
    parser.add_argument("--timeout", type=float, default=15.0, help="seconds each example may take (default 15)")
    parser.add_argument("--state", default=".qlgate/probe.json", help="the last good shapes (default %(default)s)")
    parser.add_argument("--json", action="store_true", help="one JSON object per table instead of lines")


def shape(value: Any, path: str = "", found: set[str] | None = None) -> set[str]:
    """The answer's paths with their JSON types (``items[].price:number``)."""
    found = set() if found is None else found
    if len(found) >= SHAPE_LIMIT:
        return found
    if isinstance(value, dict):
        found.add(f"{path or '.'}:object")
        for key, item in value.items():
            shape(item, f"{path}.{key}" if path else str(key), found)
    elif isinstance(value, list):
        found.add(f"{path or '.'}:array")
        for item in value[:20]:  # the first items stand for the rest
            shape(item, f"{path}[]", found)
    else:
        kind = {bool: "boolean", int: "number", float: "number", str: "string", type(None): "null"}.get(
            type(value), "other"
        )
        found.add(f"{path or '.'}:{kind}")
    return found


def compare(now: set[str], before: list[str] | None) -> dict[str, list[str]]:
    """What the answer lost and gained against the last good one (nulls aside: an
    optional field that is null this time is not a change)."""
    if before is None:
        return {}
    old = set(before)
    lost = sorted(p for p in old - now if not p.endswith(":null") and p.rsplit(":", 1)[0] + ":null" not in now)
    gained = sorted(p for p in now - old if not p.endswith(":null"))
    return {k: v for k, v in (("lost", lost), ("gained", gained)) if v}


def run(args: argparse.Namespace) -> int:
    from ..loop import run as run_coroutine

    if args.budget < 1 or args.timeout <= 0:
        raise UsageError("--budget takes a number from 1 and --timeout a positive number of seconds")
    return int(run_coroutine(_probe(args)))


async def _probe(args: argparse.Namespace) -> int:
    from ..workspace import Workspace, load_config

    state_path = Path(args.state)
    config = load_config(args.config)
    async with await Workspace.open(tables=args.tables, routes=args.routes, config=config) as workspace:
        reports = await probe_tables(workspace.engine, args, state_path, lambda report: _print(report, args.json))
    if not reports:
        raise UsageError(
            "no table has an '-- Example:' line to probe" + (" under those prefixes" if args.prefixes else "")
        )
    return EXIT_FAILURE if any(r["status"] in ("failed", "changed") for r in reports) else EXIT_OK


async def probe_tables(
    engine: Any, args: Any, state_path: Path, each: Callable[[dict[str, Any]], None] | None = None
) -> list[dict[str, Any]]:
    """Probe the tables with an ``Example:`` line (``args``: prefixes, budget, timeout),
    comparing with and updating the shapes kept at ``state_path``; ``each`` sees every
    report as it comes. The gateway's ``serve --probe-every`` runs this too."""
    from ..tables.describe import declared_example

    state = _read_state(state_path)
    reports = []
    spent: dict[str, int] = {}
    for table in engine.tables.tables():
        if args.prefixes and not any(table.name.startswith(p) for p in args.prefixes):
            continue
        example = declared_example(table)
        if example is None:
            continue
        report = await _one(engine, table.name, example, engine.api_types.of(table.name), spent, args, state)
        reports.append(report)
        if each is not None:
            each(report)
    state_path.parent.mkdir(parents=True, exist_ok=True)
    state_path.write_text(json.dumps(state, indent=1, sort_keys=True))
    return reports


async def _one(
    engine: Any, name: str, script: str, api: str, spent: dict[str, int], args: argparse.Namespace, state: dict
) -> dict[str, Any]:
    import asyncio

    from ..errors import QlError

    report: dict[str, Any] = {"table": name, "api": api}
    if spent.get(api, 0) >= args.budget:
        return {**report, "status": "skipped", "why": f"the budget of {args.budget} calls for {api} is spent"}
    try:
        compiled = engine.compile(script)
    except QlError as error:
        return {**report, "status": "failed", "error": f"the example does not compile: {error.message}"}
    if compiled.writes:
        return {**report, "status": "skipped", "why": "the example writes"}
    began = time.perf_counter()
    try:
        result = await asyncio.wait_for(engine.run_compiled(compiled), args.timeout)
    except QlError as error:
        spent[api] = spent.get(api, 0) + (error.diagnostics.sent if error.diagnostics else 1)
        failed = {**report, "status": "failed", "ms": _ms(began), "error": f"{type(error).__name__}: {error.message}"}
        answered = [c.status for c in error.diagnostics.calls if c.status] if error.diagnostics else []
        return {**failed, **({"upstream_status": answered[-1]} if answered else {})}
    except TimeoutError:
        spent[api] = spent.get(api, 0) + 1
        return {**report, "status": "failed", "ms": _ms(began), "error": f"no answer in {args.timeout:g} s"}
    spent[api] = spent.get(api, 0) + max(1, result.diagnostics.sent)
    now = shape(result.value)
    changes = compare(now, state.get(name))
    report.update(ms=_ms(began), calls=result.diagnostics.sent, paths=len(now))
    if changes.get("lost"):
        return {**report, "status": "changed", **changes}
    state[name] = sorted(now)  # the last good shape
    return {**report, "status": "ok", **changes}


def _ms(began: float) -> float:
    return round((time.perf_counter() - began) * 1000, 1)


def _read_state(path: Path) -> dict[str, list[str]]:
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as error:
        raise UsageError(f"--state {path}: cannot read it as JSON ({error})") from None
    return data if isinstance(data, dict) else {}


def _print(report: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(report, sort_keys=True), flush=True)
        return
    detail = report.get("error") or report.get("why") or ""
    if report.get("lost"):
        detail = "lost " + ", ".join(report["lost"][:5]) + (" …" if len(report["lost"]) > 5 else "")
    ms = f"{report['ms']:8.1f} ms" if "ms" in report else " " * 11
    print(f"{report['status']:8} {ms}  {report['table']}  {detail}".rstrip(), flush=True)
