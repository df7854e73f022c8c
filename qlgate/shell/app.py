"""The shell's two ways in: a prompt on a terminal, or statements piped in.

``Shell`` runs what it is given — a dot-command, or text holding statements —
and prints the outcome: the value (``commands/output.py``, as run prints one), warnings, and with
``.timing on`` the diagnostics. A failed statement prints its error and the
shell goes on; only piped input stops there (exit 1), as a script would.

On a terminal the prompt (prompt_toolkit) keeps what is typed until it holds a
statement ended by ``;`` (``split.py``): Enter before that starts a new line
under a continuation prompt. History is kept in ``$XDG_STATE_HOME/qlgate/history``
(``~/.local/state`` without it). Ctrl-C clears the line at the prompt and
cancels a statement that is running; Ctrl-D leaves.

Errors are shown as the command line shows them: piped, exactly as ``qlgate
run`` reports them (``commands/report.py``); at the prompt, as one line of text
(a syntax error with its caret), never a traceback.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from contextlib import redirect_stderr
from pathlib import Path
from typing import Any, TextIO

from ..commands.output import write_json_text
from ..commands.report import fail, warn
from ..errors import QlError, QlSyntaxError
from ..values import dump_json
from .meta import QUIT, Settings, run_meta
from .session import Session
from .split import has_code, is_complete, split_statements

log = logging.getLogger("qlgate.shell")

ERROR = "error"  # what ``meta`` returns when the dot-command failed
PROMPT = "qlgate> "
CONTINUATION = "   ...> "


class Shell:
    def __init__(
        self,
        session: Session,
        settings: Settings | None = None,
        *,
        out: TextIO | None = None,
        err: TextIO | None = None,
        interactive: bool = False,
    ):
        self.session = session
        self.settings = settings or Settings()
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.interactive = interactive
        self.status = 0  # piped: the exit status of the error that ended it (report.py's)

    # ------------------------------------------------------------------ what is typed or piped
    async def entry(self, text: str) -> str | None:
        """One accepted prompt: a dot-command, or statements. ``QUIT`` to end."""
        if text.strip().startswith("."):
            return self.meta(text.strip())
        split = split_statements(text)
        statements = split.statements + ([split.rest.strip()] if split.pending else [])
        for statement in statements:
            if not await self.statement(statement):
                break  # what follows a failed statement may well need it: not run, as in a script
        return None

    def meta(self, line: str) -> str | None:
        """Run a dot-command: ``QUIT``, ``ERROR`` (shown), or None."""
        try:
            return run_meta(line, self.session, self.settings, self.out)
        except QlError as error:
            self.error(error)
            return ERROR

    async def statement(self, text: str, line: int = 1) -> bool:
        """Run one statement and show what came of it; False when it failed.
        ``line``: where it starts in the input, for the error's line number."""
        try:
            outcome = await self.session.run(text)
        except Exception as error:
            if not isinstance(error, QlError):  # a bug: told as the command line tells it, the shell goes on
                log.debug("internal error", exc_info=error)
                error = QlError(f"internal error: {type(error).__name__}: {error}", status=500)
            if error.line is not None:
                error.line += line - 1
            self.problems()
            warn_to(self.err, dict.fromkeys(error.warnings))
            if self.settings.timing and error.diagnostics is not None:
                print(error.diagnostics.render(), file=self.err)
            self.error(error)
            return False
        self.problems()
        if outcome.show:
            write_json_text(dump_json(outcome.value), self.settings.output, self.out)
        for name in outcome.tables:
            print(f"table {name} defined for this session", file=self.err)
        for note in outcome.notes:
            print(f"note: {note}", file=self.err)
        warn_to(self.err, dict.fromkeys(outcome.warnings))
        if self.settings.timing and outcome.diagnostics is not None:
            print(outcome.diagnostics.render(), file=self.err)
        self.out.flush()
        return True

    def problems(self) -> None:
        warn_to(self.err, self.session.new_problems())

    def error(self, error: QlError) -> None:
        if not self.interactive:
            with redirect_stderr(self.err):
                self.status = fail(error)
            return
        if isinstance(error, QlSyntaxError):
            print(f"error: {error.pretty()}", file=self.err)
        else:
            print(f"error: {error}", file=self.err)

    # ------------------------------------------------------------------ piped: no prompt
    async def piped(self, text: str) -> int:
        """Run piped input statement by statement (dot-commands on lines of their
        own) to the first error; the exit status (``commands/report.py``)."""
        pending = ""
        first = 1
        for number, line in enumerate(text.splitlines(keepends=True), start=1):
            if not has_code(pending) and line.strip().startswith("."):
                pending = ""
                done = self.meta(line)
                if done == QUIT:
                    return 0
                if done == ERROR:
                    return self.status
                continue
            if not pending:
                first = number  # the input's line the pending text starts on
            pending += line
            split = split_statements(pending)
            for statement, at in zip(split.statements, split.lines):
                if not await self.statement(statement, first + at - 1):
                    return self.status
            if split.statements:
                first += pending.count("\n", 0, len(pending) - len(split.rest))
            pending = split.rest
        if has_code(pending):  # the last ';' is optional
            at = first + pending.count("\n", 0, len(pending) - len(pending.lstrip()))
            return 0 if await self.statement(pending.strip(), at) else self.status
        return 0

    # ------------------------------------------------------------------ a terminal: the prompt
    async def prompt_loop(self, **io: Any) -> int:
        """Read and run until ``.quit`` or Ctrl-D. ``io``: prompt_toolkit's ``input``
        and ``output`` (tests pass a pipe and a dummy)."""
        prompt = make_prompt(self.session, history_file(), **io)
        while True:
            try:
                text = await prompt.prompt_async()
            except KeyboardInterrupt:
                continue
            except EOFError:
                return 0
            if not text.strip():
                continue
            if text.strip() in ("quit", "exit", "\\q"):
                return 0
            if await self.cancellable(self.entry(text)) == QUIT:
                return 0

    async def cancellable(self, work: Any) -> Any:
        """``work`` as a task that Ctrl-C cancels (the shell goes on)."""
        task = asyncio.ensure_future(work)
        loop = asyncio.get_running_loop()
        try:
            loop.add_signal_handler(signal.SIGINT, task.cancel)
        except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or no signals here
            return await task
        try:
            return await task
        except asyncio.CancelledError:
            if not task.cancelled():
                raise
            print("cancelled", file=self.err)
            return None
        finally:
            loop.remove_signal_handler(signal.SIGINT)


def warn_to(stream: TextIO, problems: Any) -> None:
    """``warning:`` lines, as every command writes them (``commands/report.py``)."""
    with redirect_stderr(stream):
        warn(problems)


def history_file() -> Path:
    """Where the prompt's history is kept: ``$XDG_STATE_HOME/qlgate/history``."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "qlgate" / "history"


def make_prompt(session: Session, history: Path | None, **io: Any) -> Any:
    """The prompt: multi-line until a ``;``, coloured, completing, with history."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory, History, InMemoryHistory
    from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

    from .completion import QlCompleter
    from .lexer import STYLE, QlLexer

    kept: History = InMemoryHistory()
    if history is not None:
        try:
            history.parent.mkdir(parents=True, exist_ok=True)
            history.touch(mode=0o600, exist_ok=True)  # what was typed may hold a token: the owner's only
            kept = FileHistory(str(history))
        except OSError as e:
            print(f"warning: history not kept: cannot write {history}: {e.strerror or e}", file=sys.stderr)

    keys = KeyBindings()

    @keys.add("enter")
    def _enter(event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        if buffer.complete_state is not None and buffer.complete_state.current_completion is not None:
            buffer.complete_state = None  # Enter takes the completion chosen in the menu
            return
        if ready(buffer.document.text):
            buffer.validate_and_handle()
        else:
            buffer.insert_text("\n")

    @keys.add("escape", "enter")
    def _run_now(event: KeyPressEvent) -> None:
        event.current_buffer.validate_and_handle()

    return PromptSession(
        PROMPT,
        multiline=True,
        prompt_continuation=lambda width, line, wrap: CONTINUATION,
        key_bindings=keys,
        lexer=QlLexer(),
        style=STYLE,
        completer=QlCompleter(session),
        complete_while_typing=True,
        history=kept,
        enable_history_search=False,
        **io,
    )


def ready(text: str) -> bool:
    """Should Enter run what is typed: nothing, a dot-command, ``quit``, or
    statements all ended by ``;``?"""
    stripped = text.strip()
    return not stripped or stripped.startswith(".") or stripped in ("quit", "exit", "\\q") or is_complete(text)


async def main(
    *,
    tables: str | None,
    routes: str | None,
    config: str | None,
    variables: dict[str, Any],
    settings: Settings,
    interactive: bool,
) -> int:
    """Open the workspace (lazily, as ``qlgate run`` does: a table is compiled when
    first named) and run the shell on it."""
    from .. import __version__
    from ..jobs.factory import host_limits_if_set
    from ..workspace import Workspace, load_config

    loaded = load_config(config)
    with host_limits_if_set(loaded) as limits:
        async with await Workspace.open(
            tables=tables, routes=routes, config=loaded, lazy=True, limits=limits
        ) as workspace:
            session = Session(workspace, variables=variables)
            shell = Shell(session, settings, interactive=interactive)
            shell.problems()
            if not interactive:
                return await shell.piped(sys.stdin.read())
            print(f"qlgate {__version__} shell: statements end with ';'. .help for help, .quit or Ctrl-D to leave.")
            return await shell.prompt_loop()
