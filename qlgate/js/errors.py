"""The typed errors of deployer JavaScript. Each names the JavaScript file and,
where the engine knows it, the line and column in that file (``js_file``,
``js_line``, ``js_column`` among the details; the message starts ``file:line:``):
the line of the qlgate script a statement came from is ``QlError.line``, a
different thing, left to the engine to fill."""

from __future__ import annotations

from ..errors import QlError


class JsError(QlError):
    """JavaScript that threw, failed to compile or answered the wrong type."""

    status = 500

    def __init__(self, message: str, *, file: str, line: int | None = None, column: int | None = None, **kw: object):
        where = file + (f":{line}" if line else "") + (f":{column}" if line and column else "")
        super().__init__(f"{where}: {message}", js_file=file, js_line=line, js_column=column, **kw)  # type: ignore[arg-type]
        self.js_file, self.js_line, self.js_column = file, line, column


class JsTimeout(JsError):
    """A call ran past its CPU-time limit and was interrupted."""

    status = 504


class JsMemoryExceeded(JsError):
    """A context went past its memory limit; it is thrown away and made anew."""

    status = 500
