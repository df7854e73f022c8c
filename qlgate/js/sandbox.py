"""QuickJS contexts for deployer JavaScript, bounded and reaching nothing of the host.

Why QuickJS (the ``quickjs`` package) and not V8 (``mini-racer``), measured with
``bench/js_engines.py`` on the loaded 2-core test host (two runs): a further context
costs 0.14–0.34 ms against 3–12 ms, the first (the import included) 24 ms against
90–160 ms; a small call 16–40 µs against 200–750 µs; 21 contexts add ~4 MB of RSS
against ~80 MB. A gateway holds one context per template or patch file (over a
hundred for ql.io's eBay tree), which only QuickJS makes cheap; its binding is one
small C extension with wheels, V8's a large binary that follows Chrome's releases.
What QuickJS lacks: columns in its stack traces (errors name file and line) and a
wall-clock limit (its limit is the process's CPU time, which only makes it
stricter while other threads work).

The sandbox:

- a context has no host function at all: no file, network, process or module
  access; ``require`` knows only the relative ``.js`` files read when the table
  loaded (``Unit.modules``), and the clock reads the time the call began (whole
  seconds, set by the host), so a script can neither read the host's clock nor
  time anything;
- each call has a CPU-time limit (``JsLimits.cpu_ms``; loading a file
  ``load_cpu_ms``) and each context a memory limit; a context that ran out of
  memory is thrown away and made anew for the next call;
- every context lives on one thread of its own (QuickJS ties a runtime to the
  thread that made it); the event loop awaits it (``Sandbox.call``), so a runaway
  script holds that thread for its limit and the loop not at all.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from ..extras import require
from .errors import JsError, JsMemoryExceeded, JsTimeout

LINES_PER_FILE = 20_000
"""Each file of a context starts this many lines after the previous one (the prelude
takes the first block), so that a line in a stack trace (QuickJS names every file
``<input>``) tells the file."""


@dataclass(frozen=True)
class JsLimits:
    cpu_ms: int = 250  # one call: a template render, one hook
    load_cpu_ms: int = 2000  # evaluating a file's top level when its table loads
    memory_mb: int = 32  # one context
    stack_kb: int = 1024


_limits = JsLimits()


def set_limits(limits: JsLimits) -> None:
    """The limits of the contexts made from now on (tests, a deployment's own)."""
    global _limits
    _limits = limits


def limits() -> JsLimits:
    return _limits


_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="qlgate-js")
_generation = 0  # bumped in a forked child: the contexts made before belong to a thread it lacks


def _after_fork() -> None:
    """In a forked child (``qlgate serve --workers``) the JS thread is gone: a new one,
    and every context is made again on it when next used."""
    global _executor, _generation
    _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="qlgate-js")
    _generation += 1


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)


@cache
def _quickjs() -> Any:
    return require("quickjs", "js", "ql.io's JavaScript tables (EJS templates, .js patches)")


@cache
def prelude() -> str:
    return (Path(__file__).with_name("prelude.js")).read_text(encoding="utf-8")


@dataclass
class Unit:
    """What one context runs: files, in order, each under its display name (``files``)
    and its own block of lines; ``code[k]`` is the JavaScript of file ``k`` as
    evaluated (a template compiled, a module wrapped), on the lines of its source."""

    files: list[str] = field(default_factory=list)
    code: list[str] = field(default_factory=list)
    first_lines: list[int] = field(default_factory=list)  # where a call into file k begins, for timeouts
    line_maps: list[list[int] | None] = field(default_factory=list)  # code line → source line, when not the same

    def add(self, display: str, code: str, first_line: int = 1, line_map: list[int] | None = None) -> int:
        self.files.append(display)
        self.code.append(code)
        self.first_lines.append(first_line)
        self.line_maps.append(line_map)
        return len(self.files) - 1

    def where(self, global_line: int) -> tuple[str, int] | None:
        """The file and line of a line of the context; None for the prelude's own."""
        index = min((global_line - 1) // LINES_PER_FILE - 1, len(self.files) - 1)
        if index < 0:
            return None
        line = global_line - (index + 1) * LINES_PER_FILE
        line_map = self.line_maps[index]
        if line_map:
            line = line_map[min(max(line - 1, 0), len(line_map) - 1)]
        return self.files[index], line


_FRAME = re.compile(r"\(<input>:(\d+)(?::(\d+))?\)|at <input>:(\d+)")


class Sandbox:
    """One QuickJS context running one ``Unit``; made on first use, in the JS thread."""

    def __init__(self, unit: Unit, entry: str, *, limits: JsLimits | None = None):
        self.unit = unit
        self.entry = entry  # the JavaScript expression a call evaluates to get its function
        self._ctx: Any = None
        self._fn: Any = None
        self._limits = limits or _limits
        self._generation = _generation

    # ------------------------------------------------------------ on the JS thread
    def _context(self) -> Any:
        if self._generation != _generation:
            self._ctx = self._fn = None
            self._generation = _generation
        if self._ctx is None:
            quickjs = _quickjs()
            ctx = quickjs.Context()
            ctx.set_memory_limit(self._limits.memory_mb << 20)
            ctx.set_max_stack_size(self._limits.stack_kb << 10)
            ctx.set_time_limit(self._limits.load_cpu_ms / 1000)
            try:
                ctx.eval(prelude())
                for index, code in enumerate(self.unit.code):
                    ctx.eval("\n" * ((index + 1) * LINES_PER_FILE) + code)
                self._fn = ctx.eval(self.entry)
            except quickjs.JSException as e:
                raise self._error(e, ctx, 0, what=f"loading ran past its {self._limits.load_cpu_ms} ms") from None
            self._ctx = ctx
        return self._ctx

    def _run(self, args: tuple[Any, ...], index: int) -> Any:
        quickjs = _quickjs()
        ctx = self._context()
        ctx.set_time_limit(self._limits.cpu_ms / 1000)
        try:
            return self._fn(*args)
        except quickjs.JSException as e:
            raise self._error(e, ctx, index, what=f"ran past its {self._limits.cpu_ms} ms CPU limit") from None
        except quickjs.StackOverflow:
            file, line = self.unit.files[index], self._tracked_line(ctx, index)
            raise JsError("stack overflow (recursion too deep)", file=file, line=line) from None

    def run_sync(self, *args: Any, index: int = 0) -> Any:
        """Call from any thread but the JS one; waits for the answer (at most the limit)."""
        return _executor.submit(self._run, args, index).result()

    async def call(self, *args: Any, index: int = 0) -> Any:
        return await asyncio.get_running_loop().run_in_executor(_executor, self._run, args, index)

    def check(self) -> None:
        """Make the context now (a file that does not compile fails when its table loads)."""
        _executor.submit(self._context).result()

    # ------------------------------------------------------------ errors
    def _tracked_line(self, ctx: Any, index: int) -> int | None:
        """The template line the render had reached (set by the compiled template), else
        where the called function begins."""
        try:
            ctx.set_time_limit(-1)
            line = ctx.eval("__qlgate.state.line")
        except Exception:  # noqa: BLE001 — a context that cannot answer has no better line to give
            line = 0
        return int(line) if isinstance(line, (int, float)) and line > 0 else self.unit.first_lines[index] or None

    def _error(self, error: Exception, ctx: Any, index: int, *, what: str) -> JsError:
        text = str(error).strip()
        head = text.split("\n", 1)[0]
        file = self.unit.files[index] if self.unit.files else "<javascript>"
        # QuickJS reports an allocation that failed before an error could be made as a bare
        # ``null``, as it reports ``throw null``: the two cannot be told apart, and a runaway
        # matters more than a script that throws null, so both are memory
        if "out of memory" in text or head == "null":
            self._ctx = self._fn = None  # QuickJS leaves a context that ran out unusable: made anew next call
            return JsMemoryExceeded(f"went past the {self._limits.memory_mb} MB memory limit", file=file)
        if head.startswith("InternalError: interrupted"):
            return JsTimeout(what, file=file, line=self._tracked_line(ctx, index))
        for match in _FRAME.finditer(text):
            number = match.group(1) or match.group(3)
            column = match.group(2)
            place = self.unit.where(int(number))
            if place is not None:  # the prelude's frames (require, MutableURI) stand for the caller's line
                file, line = place
                return JsError(head, file=file, line=line, column=int(column) if column else None)
        return JsError(
            head if head != "undefined" else "threw undefined", file=file, line=self._tracked_line(ctx, index)
        )


def payload(value: Any) -> str:
    """Data for a call, as JSON text (values cross into the context as data only)."""
    return json.dumps(value, ensure_ascii=False, default=_jsonable)


def _jsonable(value: Any) -> Any:
    if isinstance(value, (set, tuple, frozenset)):
        return list(value)
    if hasattr(value, "flat"):
        return value.flat()
    return None  # MISSING, functions and other host objects are not data


def call_time_ms() -> int:
    """What ``Date.now()`` reads during a call: now, in whole seconds."""
    return int(time.time()) * 1000
