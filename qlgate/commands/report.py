"""The command line's output contract, in one place because other tools depend
on it: a result goes to stdout as JSON with exit 0; a failure goes to stderr as
one JSON object with an ``"error"`` member (a syntax error first shows its line
with a caret) and exit 1; warnings go to stderr, one ``warning:`` line each.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import Any

from ..errors import QlError, QlSyntaxError

EXIT_FAILURE = 1


def fail(error: QlError, *, pretty: bool = True) -> int:
    """Report ``error`` on stderr; the exit status to end with."""
    if pretty and isinstance(error, QlSyntaxError):
        print(error.pretty(), file=sys.stderr)
    print(json.dumps(error.to_dict(), ensure_ascii=False, default=str), file=sys.stderr)
    return EXIT_FAILURE


def warn(problems: Iterable[Any]) -> None:
    """Each problem (a table that did not load, a script's warning) on a line of its own."""
    for problem in problems:
        print(f"warning: {problem}", file=sys.stderr)
