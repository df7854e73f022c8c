"""``qlgate run``: one script — a file or ``-e`` text — run under the deployer's
trust, its result printed as JSON. The command scripts and notebooks shell out
to, so its start-up stays small: the engine is imported when the script runs,
not when the command line is parsed.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

from ..errors import QlError
from .arguments import UsageError, add_workspace_options, parse_var
from .output import add_format_option, write_json_text
from .report import fail, warn

DESCRIPTION = """Run a script and print its result on stdout: compact JSON when
piped, a table or indented JSON on a terminal (--format). The script is a
SCRIPT_FILE, '-' for stdin, or the text after -e; --var sets its variables (a
VALUE that parses as JSON is JSON, else text). It runs with the deployer's
trust: it may load code beside it and in the tables tree. Warnings go to
stderr; a failure is a JSON object with an "error" member on stderr and a
non-zero exit status."""

EXAMPLES = """examples:
  qlgate run -e 'return select title from ebay.buy.browse.search where q = "guitar" limit 3;'
  qlgate run scripts/ebay/rest/search-and-details.ql --var keywords=guitar
  echo 'return {"a": 1};' | qlgate run -
  qlgate run script.ql --format ndjson | head -1"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("script", nargs="?", metavar="SCRIPT_FILE", help="the script file, or - to read stdin")
    parser.add_argument("-e", dest="expression", metavar="SCRIPT", help="script text instead of a file")
    add_workspace_options(parser)
    parser.add_argument("--var", action="append", metavar="NAME=VALUE", help="a script variable (JSON or text)")
    parser.add_argument("--diagnostics", action="store_true", help="print upstream calls and timings to stderr")
    parser.add_argument(
        "--strict",
        action="store_true",
        help="fail (exit 2) when the script reads a variable it never assigns and no --var gives",
    )
    add_format_option(parser)


def run(args: argparse.Namespace) -> int:
    from ..loop import run as run_coroutine

    return int(run_coroutine(_execute(args)))


def _script(args: argparse.Namespace) -> tuple[str, str, Path]:
    """The script's text, its name in messages, and the directory it loads code from."""
    if args.expression is not None:
        return args.expression, "<-e>", Path.cwd()
    if not args.script:
        raise UsageError("give a SCRIPT_FILE, - (stdin) or -e 'SCRIPT TEXT'")
    if args.script == "-":
        try:
            return sys.stdin.read(), "<stdin>", Path.cwd()
        except (OSError, UnicodeDecodeError) as e:
            raise UsageError(f"cannot read the script from stdin: {e}") from None
    path = Path(args.script)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"cannot read script {path}: {getattr(e, 'strerror', None) or e}") from None
    return text, str(path), path.resolve().parent


def _unassigned(plan: Any, given: dict[str, Any], origin: str, *, strict: bool) -> set[str]:
    """Warn of each variable the script reads that it never assigns and no --var
    gives (``engine/free_names.py``); with --strict, refuse to run it. The names
    warned of, so that the compiler's own warning of a case-only typo is not said twice."""
    from ..engine.free_names import unassigned

    names = unassigned(plan.script, plan.assigned, given)
    found = [f"{origin}:{u.line}:{u.column}: {u.message('no --var gives it')}" for u in names]
    if found and strict:
        raise UsageError("--strict: " + "; ".join(found), unassigned=[u.split(": ", 1)[1] for u in found])
    warn(found)
    return {u.name for u in names}


def _warn_if_empty(parsed: Any, origin: str) -> None:
    """A script with no statement has the value ``{}`` (spec §7.3, kept for ql.io's callers),
    which printed alone looks like an answer; an empty file or an -e '' is more often a
    mistake (the wrong file, a shell variable unset), so say so beside it."""
    from ..lang import ast

    if parsed.ret is None and all(isinstance(item, ast.Line) and _only_tables(item) for item in parsed.items):
        warn([f"{origin}: the script has no statement (only comments or create table); its value is {{}}"])


def _only_tables(line: Any) -> bool:
    from ..lang import ast

    return all(isinstance(choice, ast.CreateTable) for choice in line.choices)


def warn_unassigned_in(script: str, given: dict[str, Any], origin: str) -> None:
    """``_unassigned``'s warning for a script that is not run here (``qlgate jobs submit``
    queues it): a variable no --var gives is as silently null in a job as in a run, and a
    job's run is later and elsewhere, where nobody reads its warnings. A script that does
    not compile is left to the run, which reports it as it would any other."""
    from ..engine.planner import compile_script
    from ..lang.parser import parse

    try:
        plan = compile_script(parse(script, origin=origin))
    except QlError:
        return
    _unassigned(plan, given, origin, strict=False)


def _not_yet_said(warnings: Iterable[str], names: set[str]) -> dict[str, None]:
    """``warnings`` but the compiler's "'X' is never assigned" for a name already warned of."""
    said = tuple(f"'{name}' is never assigned" for name in names)
    return dict.fromkeys(w for w in warnings if not (said and any(s in w for s in said)))


def _progress_at_a_terminal() -> None:
    """At a terminal, a long table load (the first run writes the table index) says
    how far it is on stderr instead of keeping silent (``tables/progress.py``); piped,
    stderr keeps to warnings and errors."""
    if not sys.stderr.isatty():
        return
    import logging

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("qlgate: %(message)s"))
    progress = logging.getLogger("qlgate.tables.progress")
    progress.addHandler(handler)
    progress.setLevel(logging.INFO)
    progress.propagate = False


async def _execute(args: argparse.Namespace) -> int:
    from ..engine.options import RunOptions
    from ..engine.warm import settle_one_shot_heap
    from ..values import dump_json
    from ..workspace import Workspace, load_config

    script, origin, base_dir = _script(args)
    context = dict(parse_var(v) for v in args.var or ())
    _progress_at_a_terminal()
    config = load_config(args.config)
    _check_length(script, origin, config)
    # the host's limits, when its job backend keeps them, hold for the run's calls too
    with _host_limits(config) as limits:
        # lazily: only the tables the script names are compiled, the emulator is built if called
        async with await Workspace.open(
            tables=args.tables, routes=args.routes, config=config, lazy=True, limits=limits
        ) as workspace:
            engine = workspace.engine
            shown: set[str] = set()
            warned: set[str] = set()  # variables _unassigned warned of

            def report_problems() -> None:
                """The load problems not yet shown: a table's are known when it is first compiled."""
                fresh = [p for p in workspace.problems if str(p) not in shown]
                shown.update(str(p) for p in fresh)
                warn(fresh)

            try:
                try:
                    compiled = engine.compile(script, base_dir=base_dir, origin=origin)
                finally:
                    report_problems()
                settle_one_shot_heap()  # before the run's clock starts: this process runs one script
                warned = _unassigned(compiled.plan, context, origin, strict=args.strict)
                _warn_if_empty(compiled.plan.script, origin)
                result = await engine.run_compiled(compiled, RunOptions(context=context, base_dir=base_dir))
            except QlError as error:
                report_problems()
                # what the run did and said before it failed helps as much as after a success
                if args.diagnostics and error.diagnostics is not None:
                    print(_which_ebay(config) + error.diagnostics.render(), file=sys.stderr)
                warn(_not_yet_said(error.warnings, warned))
                return fail(error)
            report_problems()
    write_json_text(dump_json(result.value), args.format, sys.stdout)
    warn(_not_yet_said(result.warnings, warned))
    if args.diagnostics:
        print(_which_ebay(config) + result.diagnostics.render(), file=sys.stderr)
    return 0


# what ``qlgate run`` compiles when the config sets no gateway.maxScriptLength: a MiB of
# dense statements parses in some 10 s on a loaded 2-core machine (long quoted text costs
# far less: 660 KB of JSON literal runs in 2 s); the gateway's 64 KiB default is for
# callers' scripts, and would refuse the deployer's own large literals
RUN_MAX_SCRIPT_LENGTH = 1_048_576


def _host_limits(config: Any) -> AbstractContextManager[Any]:
    """``jobs.factory.host_limits_if_set``, imported only when the embedded job backend's
    file exists: that module brings the job backends and the limits' store with it
    (milliseconds of a ``qlgate run`` that starts in a quarter of a second), and most runs
    have no job database to count against."""
    from ..jobs.cluster import embedded_database
    from ..jobs.settings import JobsSettings

    database = embedded_database(JobsSettings.of(config))
    if database is None or not Path(database).is_file():
        return nullcontext(None)
    from ..jobs.factory import host_limits_if_set

    return host_limits_if_set(config)


def _check_length(script: str, origin: str, config: Any) -> None:
    """A length limit, said at once: a 4 MB script compiled for a minute and a half in
    600 MB before it said anything (the time grows with the length, mostly parsing).
    The gateway's ``gateway.maxScriptLength`` when the config sets one, else
    ``RUN_MAX_SCRIPT_LENGTH``; the error says how to run a longer script anyway."""
    from ..errors import ScriptTooLong

    view = config.view
    given = view.optional_integer("gateway.maxScriptLength") if view.has("gateway.maxScriptLength") else None
    limit = given if given is not None else RUN_MAX_SCRIPT_LENGTH
    if len(script) > limit:
        raise ScriptTooLong(
            f"{origin} is {len(script):,} characters; qlgate run takes scripts up to {limit:,} "
            f"({'gateway.maxScriptLength, as the gateway' if given else 'unless the config raises gateway.maxScriptLength'}): "
            "compiling takes time and memory in proportion to the length (4 MB: over a minute "
            "and 600 MB). Set gateway.maxScriptLength in the config to run a longer one"
        )


def _which_ebay(config: Any) -> str:
    """The line of ``--diagnostics`` that says which eBay the eBay tables called, and
    why: one exported variable turns ``auto`` from the emulator to eBay production."""
    if "ebay" not in config.data:
        return ""
    from ..ebay.environments import choose

    return f"eBay: {choose(config).describe()}\n"
