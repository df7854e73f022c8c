"""What several commands parse the same way: the workspace options
(``--tables``, ``--routes``, ``--config``), ``--var NAME=VALUE``, and the error a
command line that asks for the impossible ends in.

Standard library only, like every command module at its top: argparse builds
all subcommands on every start, so whatever these modules import, a plain
``qlgate run -e`` pays for.
"""

from __future__ import annotations

import argparse
import json
import os
import re
from collections.abc import Callable
from typing import Any

from ..errors import QlError

_VAR_NAME = re.compile(r"[A-Za-z$:][A-Za-z0-9_:]*")


class UsageError(QlError):
    """The command line names a file that cannot be read, a malformed value, or
    an unsafe combination: the caller's mistake (400), reported as JSON like any
    other failure."""

    status = 400


def add_workspace_options(parser: argparse.ArgumentParser, *, routes: bool = True) -> None:
    """Where the deployment is: the trees and the config, each defaulting as
    ``workspace.py`` finds them when not given."""
    parser.add_argument("--tables", metavar="DIR", type=existing_dir, help="tables directory (default: ./tables)")
    if routes:
        parser.add_argument("--routes", metavar="DIR", type=existing_dir, help="routes directory (default: ./routes)")
    parser.add_argument("--config", metavar="FILE", help="config file (default: config/dev.json)")


def existing_dir(text: str) -> str:
    """A tree named on the command line must be there: a typo in ``--tables`` would
    otherwise load nothing and every table would be "No such table" (exit 2 instead)."""
    if not os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"no directory {text}")
    return text


def number_in(option: str, low: float, high: float | None = None, *, whole: bool = True) -> Callable[[str], Any]:
    """An argparse ``type`` for a number ``option`` takes, from ``low`` to ``high``: a value
    outside is argparse's usage error (exit 2, with the command's usage), not a failure
    found later (exit 1) by the backend or the port it overflows into."""

    def parse(text: str) -> Any:
        try:
            value = int(text) if whole else float(text)
        except ValueError:
            value = None
        if value is None or value != value or value < low or (high is not None and value > high):
            bounds = f"from {low:g} to {high:g}" if high is not None else f"of at least {low:g}"
            raise argparse.ArgumentTypeError(
                f"{option} takes {'a whole number' if whole else 'a number'} {bounds}, not {text[:20]!r}"
            )
        return value

    return parse


def parse_var(text: str) -> tuple[str, Any]:
    """``NAME=VALUE``: VALUE is JSON when it parses, else a string. A VALUE that
    starts like JSON (``{``, ``[`` or ``"``) but does not parse is a mistake, not
    text: a usage error naming the variable and where the JSON breaks (never the
    value, which may be a secret)."""
    name, sep, value = text.partition("=")
    if not sep or not _VAR_NAME.fullmatch(name):
        raise UsageError(f"bad --var {text!r}: expected NAME=VALUE with NAME a single word")
    try:
        return name, json.loads(value)
    except json.JSONDecodeError as e:
        if value.lstrip().startswith(("{", "[", '"')):
            raise UsageError(
                f"--var {name}: the value looks like JSON but does not parse: {e.msg} at line {e.lineno} "
                f"column {e.colno} (char {e.pos}); to pass it as text, quote it as JSON: {name}='\"…\"'",
                var=name,
            ) from None
        return name, value
