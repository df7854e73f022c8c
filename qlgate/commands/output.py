"""How a command prints a result: ``--format json|pretty|table|ndjson``.

Without ``--format`` the reader decides: a person at a terminal gets a table for
a list of objects and indented, coloured JSON for anything else; a pipe gets
compact JSON, one line, which is what scripts and ``jq`` expect and what the
command printed before formats existed.

- ``json``: compact JSON, one line.
- ``pretty``: indented JSON, coloured on a terminal (not with ``NO_COLOR`` set
  or ``TERM=dumb``).
- ``table``: a list of objects as columns (one per key, in order of first
  appearance; a nested value as compact JSON), an object as key/value rows, a
  list of scalars as one column; anything else as ``pretty``. On a terminal it
  is drawn with ``rich``, sized to the window (when installed: the ``shell``
  extra); piped, or without rich, as plain aligned text.
- ``ndjson``: each element of a list on a line of its own (nothing for an empty
  list), written and flushed one at a time; any other value on one line.

``qlgate run``, ``qlgate jobs result`` and the shell (``--format``, ``.output``) all
print through here, so a value looks the same from each.

The input is the result as JSON text (the caller's serialiser decides what a
script value looks like as JSON); this module only lays it out. It imports the
standard library only, and ``rich`` when it draws a table on a terminal: it is
imported while the command line is parsed, and start-up stays small.
"""

from __future__ import annotations

import argparse
import json
import os
import re
from typing import IO, Any

FORMATS = ("json", "pretty", "table", "ndjson")

FORMAT_HELP = "json (compact, one line), pretty, table or ndjson (default: table or pretty on a terminal, else json)"


def add_format_option(parser: argparse.ArgumentParser) -> None:
    """``--format``, for every command that prints a result."""
    parser.add_argument("--format", choices=FORMATS, metavar="FORMAT", help=FORMAT_HELP)


def is_terminal(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or fake stream
        return False


def chosen_format(asked: str | None, value: Any, stream: IO[str]) -> str:
    """The format asked for, else the one that suits the reader and the value."""
    if asked:
        return asked
    if not is_terminal(stream):
        return "json"
    return "table" if _records(value) is not None else "pretty"


def write_json_text(text: str, asked: str | None, stream: IO[str]) -> None:
    """Print a result given as JSON text in the format asked (or chosen) for ``stream``."""
    if asked in (None, "json") and not (asked is None and is_terminal(stream)):
        stream.write(text.rstrip("\n") + "\n")  # the common, piped case: no parse, no re-encode
        stream.flush()
        return
    write_value(json.loads(text), asked, stream)


def write_value(value: Any, asked: str | None, stream: IO[str]) -> None:
    """Print a JSON-compatible ``value`` in the format asked (or chosen) for ``stream``."""
    fmt = chosen_format(asked, value, stream)
    if fmt == "json":
        stream.write(_compact(value) + "\n")
    elif fmt == "ndjson":  # row by row, each flushed: a reader (| head, jq) starts on the first
        for item in value if isinstance(value, list) else [value]:
            stream.write(_compact(item) + "\n")
            stream.flush()
    elif fmt == "table" and (rows := _rows(value)) is not None:
        header, body = rows
        if is_terminal(stream) and _has_rich():
            _rich_table(header, body, stream)
        else:
            stream.write(plain_table(header, body))
    else:
        text = json.dumps(value, indent=2, ensure_ascii=False)
        stream.write((colour_json(text) if _colour_wanted(stream) else text) + "\n")
    stream.flush()


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _records(value: Any) -> list[dict[str, Any]] | None:
    """``value`` when it is a non-empty list of objects."""
    if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
        return value
    return None


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return _compact(value)


def _rows(value: Any) -> tuple[list[str], list[list[str]]] | None:
    """A value as a header and rows of text, or None when it is no table."""
    records = _records(value)
    if records is not None:
        header = list(dict.fromkeys(key for record in records for key in record))
        return header, [[_cell(record.get(key)) for key in header] for record in records]
    if isinstance(value, dict) and value:
        return ["key", "value"], [[str(k), _cell(v)] for k, v in value.items()]
    if isinstance(value, list) and value:
        return ["value"], [[_cell(item)] for item in value]
    return None


def plain_table(header: list[str], body: list[list[str]]) -> str:
    """Columns padded to their widest cell, a rule under the header; a cell's line breaks become spaces."""
    cells = [[" ".join(cell.splitlines()) for cell in row] for row in [header, *body]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]

    def line(row: list[str]) -> str:
        return "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()

    rule = "  ".join("-" * width for width in widths)
    return "\n".join([line(cells[0]), rule, *(line(row) for row in cells[1:])]) + "\n"


def _has_rich() -> bool:
    """rich comes with the shell extra; without it a terminal gets the plain table pipes get."""
    try:
        import rich  # noqa: F401  (drawn with at once: importing it costs nothing extra)
    except ImportError:
        return False
    return True


def _rich_table(header: list[str], body: list[list[str]], stream: IO[str]) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    table = Table()
    for name in header:
        table.add_column(Text(name, style="bold"), overflow="fold")
    for row in body:
        table.add_row(*(Text(cell) for cell in row))  # Text: a value's [brackets] are not rich markup
    Console(file=stream, no_color=not _colour_wanted(stream), highlight=False).print(table)


def _colour_wanted(stream: IO[str]) -> bool:
    return is_terminal(stream) and "NO_COLOR" not in os.environ and os.environ.get("TERM") != "dumb"


# compiled on first use (re's cache keeps it): not every start draws colours
_TOKEN = r'(?P<key>"(?:[^"\\]|\\.)*")(?=\s*:)|(?P<string>"(?:[^"\\]|\\.)*")|(?P<number>-?\d[\d.eE+-]*)|(?P<word>true|false|null)'
_COLOURS = {"key": "1;34", "string": "32", "number": "36", "word": "35"}


def colour_json(text: str) -> str:
    """JSON text with ANSI colours: keys, strings, numbers and true/false/null each their own."""

    def paint(match: re.Match[str]) -> str:
        kind = match.lastgroup or "word"
        return f"\x1b[{_COLOURS[kind]}m{match.group()}\x1b[0m"

    return re.sub(_TOKEN, paint, text)


def progress_line(states: list[str], elapsed: float, width: int = 24) -> str:
    """One line for jobs being waited on: a bar of the ended share, then the count in each state.

    ``[██████████░░░░░░░░░░░░░░] 3/8 ended · 2 queued · 3 running · 3 done · 12s``; failed and
    cancelled jobs are counted when there are some."""
    ended = sum(state in ("done", "failed", "cancelled") for state in states)
    filled = round(width * ended / len(states)) if states else width
    counts = [f"{states.count(state)} {state}" for state in ("queued", "running", "done")]
    counts += [f"{states.count(state)} {state}" for state in ("failed", "cancelled") if state in states]
    bar = "\u2588" * filled + "\u2591" * (width - filled)
    return f"[{bar}] {ended}/{len(states)} ended · {' · '.join(counts)} · {elapsed:.0f}s"
