"""The shell's dot-commands: a line starting with ``.`` is one (no ``;``).

They answer from the session — the engine's table registry, the variables
kept — and change how the shell shows things (``.timing``, ``.output``); none
runs a statement. A mistyped one is a ``UsageError`` naming what exists, so
piped input stops on it as on a failed statement.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from ..commands.arguments import UsageError
from ..commands.output import FORMATS
from ..suggest import nearest
from ..values import dump_json
from .completion import META_COMMANDS, table_columns
from .session import Session

AUTO = "auto"
MODES = (*FORMATS, AUTO)  # what .output takes: the formats of run and jobs result, and the reader's choice

VERBS = ("select", "insert", "update", "delete")
MAX_VAR_CHARS = 200  # ``.vars`` shows each value on one line, cut here

HELP = """Statements end with ';' and may span lines; variables they assign stay for the next ones.
  .tables [TEXT]       list the tables (those whose name holds TEXT)
  .describe TABLE      how a table is called: verbs, URI, parameters, columns
  .timing on|off       after each statement, its upstream calls and times
  .vars                the variables kept so far
  .output FORMAT       how results are shown: json, pretty, table, ndjson (as run --format), or auto
  .help                this text
  .quit                leave (or Ctrl-D)"""


@dataclass
class Settings:
    timing: bool = False
    # a format of commands/output.py, as run's and jobs result's --format; None: chosen for the
    # reader as they choose it (a table or indented JSON on a terminal, else compact JSON)
    output: str | None = None


QUIT = "quit"


def run_meta(line: str, session: Session, settings: Settings, out: TextIO) -> str | None:
    """Answer one dot-command on ``out``; ``QUIT`` when the shell should end."""
    name, _, rest = line.strip().rstrip(";").strip().partition(" ")  # (a habit of SQL shells: ``.tables;``)
    argument = rest.strip()
    handler = _COMMANDS.get(name)
    if handler is None:
        meant = nearest(name, META_COMMANDS)
        hint = f"did you mean {meant}? " if meant else ""
        raise UsageError(f"unknown command {name}; {hint}the commands are {', '.join(META_COMMANDS)} (.help)")
    return handler(argument, session, settings, out)


def _tables(argument: str, session: Session, settings: Settings, out: TextIO) -> None:
    tables = session.engine.tables
    names = [n for n in tables.names() if argument.lower() in n.lower()]
    for name in names:
        table = tables.get(name)
        verbs = ", ".join(verb for verb in VERBS if verb in table.mappings)
        mine = "  (this session)" if name in session.defined else ""
        print(f"{name}  ({verbs}){mine}", file=out)
    print(f"({len(names)} table{'s' if len(names) != 1 else ''})", file=out)


def _describe(argument: str, session: Session, settings: Settings, out: TextIO) -> None:
    from ..commands.authoring import mapping_lines
    from ..tables.describe import describe_table

    if not argument:
        raise UsageError(".describe needs a table's name: .describe TABLE")
    engine = session.engine
    table = engine.tables.get(argument)
    described = describe_table(table, engine.routes, engine.config.secrets)
    print(table.name + (f"   ({table.file}:{table.line})" if table.file else ""), file=out)
    if table.doc:
        print("  " + table.doc.replace("\n", "\n  "), file=out)
    for verb in VERBS:
        if described.get(verb):
            print("\n" + "\n".join(mapping_lines(verb, described[verb])), file=out)
    columns = table_columns(table)
    if columns:
        print(f"\n  columns: {', '.join(columns)}", file=out)


def _timing(argument: str, session: Session, settings: Settings, out: TextIO) -> None:
    if argument not in ("on", "off", ""):
        raise UsageError(f".timing takes on or off, not {argument!r}")
    if argument:
        settings.timing = argument == "on"
    print(f"timing is {'on' if settings.timing else 'off'}", file=out)


def _vars(argument: str, session: Session, settings: Settings, out: TextIO) -> None:
    if not session.variables:
        print("(no variables)", file=out)
    for name, value in sorted(session.variables.items()):
        text = dump_json(value)
        if len(text) > MAX_VAR_CHARS:
            text = text[: MAX_VAR_CHARS - 1] + "…"
        print(f"{name} = {text}", file=out)


def _output(argument: str, session: Session, settings: Settings, out: TextIO) -> None:
    if argument and argument not in MODES:
        meant = nearest(argument, MODES)
        hint = f" (did you mean {meant}?)" if meant else ""
        raise UsageError(f".output takes {', '.join(MODES)}, not {argument!r}{hint}")
    if argument:
        settings.output = None if argument == AUTO else argument
    print(f"output is {settings.output or AUTO + ' (a table or pretty on a terminal, else json)'}", file=out)


def _help(argument: str, session: Session, settings: Settings, out: TextIO) -> None:
    print(HELP, file=out)


def _quit(argument: str, session: Session, settings: Settings, out: TextIO) -> str:
    return QUIT


_COMMANDS: dict[str, Callable[[str, Session, Settings, TextIO], str | None]] = {
    ".tables": _tables,
    ".describe": _describe,
    ".timing": _timing,
    ".vars": _vars,
    ".output": _output,
    ".help": _help,
    ".quit": _quit,
    ".exit": _quit,
}
