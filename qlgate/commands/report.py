"""The command line's output contract, in one place because other tools depend
on it: a result goes to stdout (``output.py`` formats it) with exit 0; a failure
goes to stderr as one JSON object with an ``"error"`` member (a syntax error
first shows its line with a caret); warnings go to stderr, one ``warning:`` line
each.

The exit status says which kind of failure it was, the same from every command
and whichever layer noticed it, so a calling script can tell "fix your command
line" from "try again later" without reading the message:

==== ==========================================================================
0    success
1    the script, a job or an upstream failed (syntax error, unknown table,
     HTTP error, a failed job, ``check`` finding errors)
2    usage: the command line or a file it names cannot be used (bad arguments,
     a malformed ``--var``, a script file that cannot be read, a config that cannot
     be read or is invalid); a script that does not compile is a 1
3    a timeout: ``jobs wait --timeout`` expired, a run or a call passed its
     deadline (an error with status 504)
130  interrupted (Ctrl-C)
141  the reader of stdout went away (``qlgate run … | head -1``), quietly, as a
     command killed by SIGPIPE
==== ==========================================================================
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import Any

from ..errors import ConfigError, QlError, QlSyntaxError

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_TIMEOUT = 3
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141

EXIT_CODES = f"""exit status:
  {EXIT_OK}    success
  {EXIT_FAILURE}    the script (syntax errors too), a job or an upstream failed
  {EXIT_USAGE}    usage: bad arguments, a malformed --var, an unreadable script, a bad config
  {EXIT_TIMEOUT}    a timeout (jobs wait --timeout, a run's or a call's deadline)
  {EXIT_INTERRUPTED}  interrupted (Ctrl-C)
  {EXIT_BROKEN_PIPE}  stdout's reader went away (| head), without a message"""


def exit_status(error: QlError) -> int:
    """The exit status ``error`` ends a command with (the table in this module's docstring)."""
    from .arguments import UsageError

    if isinstance(error, UsageError | ConfigError):
        return EXIT_USAGE
    if error.status == 504:
        return EXIT_TIMEOUT
    return EXIT_FAILURE


def fail(error: QlError, *, pretty: bool = True) -> int:
    """Report ``error`` on stderr; the exit status to end with."""
    if pretty and isinstance(error, QlSyntaxError):
        print(error.pretty(), file=sys.stderr)
    print(json.dumps(error.to_dict(), ensure_ascii=False, default=str), file=sys.stderr)
    return exit_status(error)


def warn(problems: Iterable[Any]) -> None:
    """Each problem (a table that did not load, a script's warning) on a line of its own."""
    for problem in problems:
        print(f"warning: {problem}", file=sys.stderr)
