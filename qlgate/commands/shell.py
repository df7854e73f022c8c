"""``qlgate shell``: statements typed at a prompt (or piped in), run one by one
on one workspace, the variables of each kept for the next. The shell itself is
``qlgate/shell/``; this module only parses the command line, with the options
``qlgate run`` takes, and imports the shell (prompt_toolkit, the engine) when
it runs: the parser of every command is built on every start.
"""

from __future__ import annotations

import argparse
import sys

from .arguments import add_workspace_options, parse_var
from .output import FORMATS, add_format_option

DESCRIPTION = """An interactive shell on the workspace: type statements ending
with ';' (they may span lines), see each result at once; variables a statement
assigns stay for the next ones. Tab completes table names, columns and
keywords; history is kept in $XDG_STATE_HOME/qlgate/history. Dot-commands:
.tables, .describe TABLE, .timing on|off, .vars, .output FORMAT|auto, .help,
.quit. Statements piped on stdin run without a prompt, each result printed as
JSON; the first error ends it with exit status 1."""

EXAMPLES = """examples:
  qlgate shell
  qlgate shell --var keywords=guitar --config /tmp/emulator.json
  echo 'x = select itemId from browse.search where q = "guitar" limit 1; return "{x}";' | qlgate shell"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_workspace_options(parser)
    parser.add_argument("--var", action="append", metavar="NAME=VALUE", help="a variable (JSON or text)")
    parser.add_argument("--diagnostics", action="store_true", help="start with .timing on")
    add_format_option(parser)  # the formats of run and jobs result, and the same default
    parser.add_argument("--output", dest="format", choices=FORMATS, help=argparse.SUPPRESS)  # its name until 0.x


def run(args: argparse.Namespace) -> int:
    from ..loop import run as run_coroutine
    from ..shell.app import main
    from ..shell.meta import Settings

    interactive = sys.stdin.isatty()
    settings = Settings(timing=args.diagnostics, output=args.format)
    variables = dict(parse_var(v) for v in args.var or ())
    return int(
        run_coroutine(
            main(
                tables=args.tables,
                routes=args.routes,
                config=args.config,
                variables=variables,
                settings=settings,
                interactive=interactive,
            )
        )
    )
