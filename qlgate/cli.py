"""The ``qlgate`` command: every subcommand in one table (``COMMANDS``), and the
contract they all keep (other tools depend on it): results as JSON on stdout
with exit 0; failures as a JSON object with an ``"error"`` member on stderr and
a non-zero exit (``commands/report.py``); exit 2 for a command line argparse
cannot parse, 130 for Ctrl-C.

argparse rather than click: it is in the standard library, so the command adds
no dependency, and it is cheap to import (about 1 ms here, click about 11 ms).
Start-up matters — scripts and notebooks shell out to ``qlgate run -e`` once per
query — and the parser of every command is built on every start, so a command
module imports only the standard library and ``commands/arguments.py`` at its
top; its ``run`` imports the engine, aiohttp or kazoo when it runs. A test in
``tests/test_cli.py`` keeps it that way.

A command is a row: its name, a one-line help for ``qlgate --help``, a
description for ``qlgate NAME --help``, the function that adds its arguments,
and the function that runs it and returns the exit status.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ._version import __version__
from .commands import auth, authoring, importing, sandbox, script
from .commands.report import fail
from .errors import QlError
from .jobs import cli as jobs
from .jobs import daemons
from .server import serve

__all__ = ["COMMANDS", "Command", "build_parser", "main"]


@dataclass(frozen=True)
class Command:
    name: str
    help: str  # one line, listed by ``qlgate --help``
    description: str  # what ``qlgate NAME --help`` opens with
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


COMMANDS: tuple[Command, ...] = (
    Command("run", "run a script and print its result as JSON", script.DESCRIPTION, script.add_arguments, script.run),
    Command(
        "check",
        "compile every table and route; report errors as file:line:col",
        authoring.CHECK,
        authoring.add_check_arguments,
        authoring.check,
    ),
    Command("tables", "list tables", authoring.TABLES, authoring.add_tables_arguments, authoring.tables),
    Command(
        "describe",
        "show a table's verbs, URI, params, defaults, headers, body",
        authoring.DESCRIBE,
        authoring.add_describe_arguments,
        authoring.describe,
    ),
    Command(
        "import",
        "write tables from an OpenAPI 3.x or Swagger 2 spec",
        importing.DESCRIPTION,
        importing.add_arguments,
        importing.run,
    ),
    Command(
        "sandbox",
        "run the built-in eBay emulator (REST with OAuth2, Finding, Shopping, Trading)",
        sandbox.DESCRIPTION,
        sandbox.add_arguments,
        sandbox.run,
    ),
    Command("serve", "run the HTTP gateway", serve.DESCRIPTION, serve.add_arguments, serve.run),
    Command(
        "worker",
        "run jobs from the cluster (and stand for limiter master)",
        daemons.WORKER,
        daemons.add_worker_arguments,
        daemons.run_worker,
    ),
    Command(
        "limiter",
        "stand for limiter master only (no jobs run here)",
        daemons.LIMITER,
        daemons.add_limiter_arguments,
        daemons.run_limiter,
    ),
    Command("jobs", "submit, watch, cancel and limit jobs", jobs.DESCRIPTION, jobs.add_arguments, jobs.run_jobs),
    Command(
        "auth",
        "log in to an OAuth2 credential (config auth), list their tokens",
        auth.DESCRIPTION,
        auth.add_arguments,
        auth.run,
    ),
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="qlgate", description="Query gateway for marketplace APIs.")
    parser.add_argument("--version", action="version", version=f"qlgate {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.add_arguments(sub.add_parser(command.name, help=command.help, description=command.description))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    logging.basicConfig(level=logging.ERROR, format="qlgate: %(levelname)s: %(message)s")
    args = build_parser().parse_args(argv)
    command = next(c for c in COMMANDS if c.name == args.command)
    try:
        return command.run(args)
    except QlError as error:
        return fail(error)
    except KeyboardInterrupt:
        return 130
    except Exception as error:
        logging.getLogger("qlgate").debug("internal error", exc_info=error)
        return fail(QlError(f"internal error: {type(error).__name__}: {error}", status=500))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
