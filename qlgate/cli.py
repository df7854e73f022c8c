"""The ``qlgate`` command: every subcommand in one table (``COMMANDS``), and the
contract they all keep (other tools depend on it): results on stdout — compact
JSON when piped, a table or indented JSON on a terminal, ``--format`` to choose
(``commands/output.py``) — with exit 0; failures as a JSON object with an
``"error"`` member on stderr and a non-zero exit status that says which kind
of failure it was, the same whichever layer found it (``commands/report.py``):

- 0 success;
- 1 the script, a job or an upstream failed;
- 2 usage: bad arguments (argparse's own errors included), a malformed
  ``--var``, a script or config file that cannot be read or used;
- 3 a timeout: ``jobs wait --timeout`` expired, a run or call passed its deadline;
- 130 Ctrl-C;
- 141 stdout's reader went away (``| head -1``): no message, as for a command
  killed by SIGPIPE.

``qlgate`` alone prints the help. Each subcommand's ``--help`` ends with
examples; ``qlgate completion bash|zsh`` prints a completion script made from
this parser.

argparse rather than click: it is in the standard library, so the command adds
no dependency, and it is cheap to import (about 1 ms here, click about 11 ms).
Start-up matters — scripts and notebooks shell out to ``qlgate run -e`` once per
query — and the parser of every command is built on every start, so a command
module imports only the standard library and ``commands/arguments.py`` at its
top; its ``run`` imports the engine, aiohttp or kazoo when it runs. A test in
``tests/test_cli.py`` keeps it that way.

A command is a row: its name, a one-line help for ``qlgate --help``, a
description for ``qlgate NAME --help``, the function that adds its arguments,
the function that runs it and returns the exit status, and the examples that
end its ``--help``.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ._version import __version__
from .commands import auth, authoring, completion, daemons, importing, jobs, probe, sandbox, script
from .commands import config as config_command
from .commands import shell as shell_command
from .commands.report import EXIT_BROKEN_PIPE, EXIT_CODES, EXIT_INTERRUPTED, fail
from .errors import QlError
from .server import serve

__all__ = ["COMMANDS", "Command", "build_parser", "main"]


@dataclass(frozen=True)
class Command:
    name: str
    help: str  # one line, listed by ``qlgate --help``
    description: str  # what ``qlgate NAME --help`` opens with
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    examples: str = ""  # "examples:" then indented command lines: the end of ``qlgate NAME --help``
    # (module, extra, option): what the command cannot run without — always (option None) or when
    # the option is given. Checked before ``run`` (and before a server forks its workers), so a
    # missing extra is one MissingExtra naming it (qlgate/extras.py), not an ImportError in ``run``
    needs: tuple[tuple[str, str, str | None], ...] = ()


def _completion(args: argparse.Namespace) -> int:
    return completion.run(args, build_parser())


COMMANDS: tuple[Command, ...] = (
    Command(
        "run",
        "run a script (a file, - for stdin, or -e TEXT) and print its result",
        script.DESCRIPTION,
        script.add_arguments,
        script.run,
        script.EXAMPLES,
    ),
    Command(
        "check",
        "compile every table and route; report errors as file:line:col",
        authoring.CHECK,
        authoring.add_check_arguments,
        authoring.check,
        """examples:
  qlgate check                          # ./tables and ./routes, config/dev.json
  qlgate check --tables my/tables --routes my/routes --config prod.json""",
    ),
    Command(
        "tables",
        "list tables",
        authoring.TABLES,
        authoring.add_tables_arguments,
        authoring.tables,
        """examples:
  qlgate tables | grep browse
  qlgate tables --json --tables my/tables""",
    ),
    Command(
        "describe",
        "show a table's verbs, URI, params, defaults, headers, body",
        authoring.DESCRIBE,
        authoring.add_describe_arguments,
        authoring.describe,
        """examples:
  qlgate describe ebay.buy.browse.search
  qlgate describe browse.getItem --json    # a name's end is enough when it names one table""",
    ),
    Command(
        "import",
        "write tables from an OpenAPI 3.x or Swagger 2 spec",
        importing.DESCRIPTION,
        importing.add_arguments,
        importing.run,
        """examples:
  qlgate import openapi petstore.yaml --name acme.pets --out tables/acme/pets
  qlgate import openapi petstore.json --name acme.pets --out tables/acme/pets --force""",
    ),
    Command(
        "probe",
        "run each table's Example against its upstream; report status, time and shape changes",
        probe.DESCRIPTION,
        probe.add_arguments,
        probe.run,
        """examples:
  qlgate probe                                   # every table with an -- Example: line
  qlgate probe ebay.buy --budget 5 --json        # eBay's Buy tables, 5 calls per API type at most""",
    ),
    Command(
        "sandbox",
        "run the eBay emulator (REST with OAuth2, Finding, Shopping, Trading; qlgate-ebay-emulator)",
        sandbox.DESCRIPTION,
        sandbox.add_arguments,
        sandbox.run,
        """examples:
  qlgate sandbox --port 8642 --write-config /tmp/emulator.json
  qlgate run scripts/ebay/scenario2-list-and-bid.ql --config /tmp/emulator.json""",
    ),
    Command(
        "serve",
        "run the HTTP gateway",
        serve.DESCRIPTION,
        serve.add_arguments,
        serve.run,
        """examples:
  qlgate serve                                   # http://127.0.0.1:3000
  qlgate serve --port 8080 --workers 2 --config config/prod.json
  curl 'http://127.0.0.1:3000/ebay/browse/search?q=camera&limit=3'""",
        needs=(("kazoo", "cluster", "zookeeper"),),
    ),
    Command(
        "worker",
        "run jobs from the cluster (and stand for limiter master)",
        daemons.WORKER,
        daemons.add_worker_arguments,
        daemons.run_worker,
        """examples:
  qlgate worker --zookeeper zk1:2181,zk2:2181,zk3:2181
  qlgate worker --zookeeper 127.0.0.1:2181 --slots 8 --config config/prod.json""",
        needs=(("kazoo", "cluster", None),),
    ),
    Command(
        "limiter",
        "stand for limiter master only (no jobs run here)",
        daemons.LIMITER,
        daemons.add_limiter_arguments,
        daemons.run_limiter,
        """examples:
  qlgate limiter --zookeeper zk1:2181,zk2:2181,zk3:2181""",
        needs=(("kazoo", "cluster", None),),
    ),
    Command(
        "jobs",
        "submit, watch, cancel and limit jobs",
        jobs.DESCRIPTION,
        jobs.add_arguments,
        jobs.run_jobs,
        jobs.EXAMPLES,
        needs=(("kazoo", "cluster", "zookeeper"),),
    ),
    Command(
        "auth",
        "log in to an OAuth2 credential (config auth), list their tokens",
        auth.DESCRIPTION,
        auth.add_arguments,
        auth.run,
        """examples:
  qlgate auth status
  qlgate auth login ebay.user --paste      # eBay: sign in, paste the address eBay sends you to""",
    ),
    Command(
        "completion",
        "print a shell completion script (bash or zsh)",
        completion.DESCRIPTION,
        completion.add_arguments,
        _completion,
        completion.EXAMPLES,
    ),
    Command(
        "config",
        "check a config file, or show it with defaults filled in and secrets masked",
        config_command.DESCRIPTION,
        config_command.add_arguments,
        config_command.run,
        config_command.EXAMPLES,
    ),
    Command(
        "shell",
        "an interactive shell: statements at a prompt, variables kept (or piped in)",
        shell_command.DESCRIPTION,
        shell_command.add_arguments,
        shell_command.run,
        shell_command.EXAMPLES,
        needs=(("prompt_toolkit", "shell", None),),
    ),
)


EXAMPLES = f"""examples:
  qlgate run -e 'return select title from ebay.buy.browse.search where q = "guitar" limit 3;'
  echo 'return 1;' | qlgate run -
  qlgate serve
  qlgate jobs list                      # the gateway of $QLGATE_GATEWAY, else a local one
  source <(qlgate completion bash)

{EXIT_CODES}

'qlgate COMMAND --help' shows a command's options and examples."""

COMMAND_EPILOG = "exit status: 0 success, 1 failure, 2 usage, 3 timeout, 130 Ctrl-C (see qlgate --help)"


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Help text as written where layout matters, filled to the window where it
    does not: a paragraph with an indented line (examples, a table) is kept line
    for line; any other is re-filled, so descriptions written as flowing text
    read well at any width."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        paragraphs = textwrap.dedent(text).strip("\n").split("\n\n")
        out = []
        for paragraph in paragraphs:
            lines = paragraph.splitlines()
            if any(line[:1].isspace() for line in lines[1:]):
                out.append("\n".join(indent + line for line in lines))
            else:
                out.append(
                    textwrap.fill(" ".join(paragraph.split()), width, initial_indent=indent, subsequent_indent=indent)
                )
        return "\n\n".join(out)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="qlgate", description="Query gateway for marketplace APIs.", epilog=EXAMPLES)
    parser.add_argument("--version", action="version", version=f"qlgate {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        epilog = f"{command.examples}\n\n{COMMAND_EPILOG}" if command.examples else COMMAND_EPILOG
        command.add_arguments(
            sub.add_parser(command.name, help=command.help, description=command.description, epilog=epilog)
        )
    for _, each in completion.walk(parser):  # nested ones too (jobs submit, auth login…)
        each.formatter_class = HelpFormatter
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(list(sys.argv[1:] if argv is None else argv))
    except BrokenPipeError:
        # stdout's reader went away (``| head -1``): nothing to say, and nothing more to write — the
        # interpreter's last flush at exit would otherwise print a BrokenPipeError of its own
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return EXIT_BROKEN_PIPE


def _refuse_unknown(parser: argparse.ArgumentParser, argv: list[str], unknown: list[str]) -> None:
    """argparse reports an unknown option of a subcommand with the top level's usage, which
    lists commands, not the options meant (``run --frmat``). Report it with the usage of the
    subcommand it was given to and the nearest option that subcommand has (exit 2)."""
    from .suggest import nearest

    words = [word for word in argv if not word.startswith("-")]
    owner = max(
        (each for path, each in completion.walk(parser) if words[: len(path)] == list(path)),
        key=lambda each: len(each.prog),
    )
    options = [o for action in owner._actions for o in action.option_strings if o.startswith("--")]
    shown = []
    for word in unknown:
        meant = nearest(word.split("=", 1)[0], options, cutoff=0.7) if word.startswith("--") else None
        shown.append(f"{word} (did you mean {meant}?)" if meant else word)
    owner.error(f"unrecognized arguments: {' '.join(shown)}")


def _main(argv: list[str]) -> int:
    logging.basicConfig(level=logging.ERROR, format="qlgate: %(levelname)s: %(message)s")
    parser = build_parser()
    if not argv:
        parser.print_help()
        return 0
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        _refuse_unknown(parser, argv, unknown)
    command = next(c for c in COMMANDS if c.name == args.command)
    try:
        if command.needs:
            from .extras import require

            for module, extra, option in command.needs:
                if option is None or getattr(args, option, None):
                    require(module, extra, f"qlgate {command.name}" + (f" --{option}" if option else ""))
        return command.run(args)
    except QlError as error:
        return fail(error)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        raise
    except Exception as error:
        logging.getLogger("qlgate").debug("internal error", exc_info=error)
        return fail(QlError(f"internal error: {type(error).__name__}: {error}", status=500))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
