"""Typed errors. Every failure a user can cause ends as one of these, carrying
the HTTP status the gateway answers with and, when known, the script position.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # a type only: the record of a run, a leaf module like this one
    from .diagnostics import Diagnostics


class QlError(Exception):
    """Base of every qlgate error: a message, a status and optional details.

    Every exception qlgate raises for something a user, a caller or the deployment
    caused derives from this one, so that an embedding application, the CLI and the
    gateway need one ``except QlError`` to answer any of them with a status and a
    message; the job backend's and the archive's errors included.

    ``diagnostics`` and ``warnings`` are what a failed run had done and said by the
    time it failed (the engine sets them): the upstream calls it made and the
    warnings it raised are as useful after a failure as after a success. Errors
    raised outside a run keep the empty defaults.
    """

    status = 500
    kind = "error"
    diagnostics: Diagnostics | None = None
    warnings: Sequence[str] = ()

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        line: int | None = None,
        column: int | None = None,
        statement: str | None = None,
        **details: Any,
    ):
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status
        self.line = line
        self.column = column
        self.statement = statement
        self.details = details

    def at(self, line: int | None, statement: str | None = None) -> QlError:
        """Attach the failing statement's position unless it is already known."""
        if self.line is None:
            self.line = line
        if self.statement is None:
            self.statement = statement
        return self

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        return f"{where}{self.message}"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"error": self.message, "type": type(self).__name__, "status": self.status}
        if self.line is not None:
            out["line"] = self.line
        if self.column is not None:
            out["column"] = self.column
        if self.statement:
            out["statement"] = self.statement
        for key, value in self.details.items():
            if value is not None:
                out[key] = value
        return out


class QlSyntaxError(QlError):
    """The script text does not parse; carries the position and what was expected."""

    status = 400

    def __init__(
        self,
        message: str,
        *,
        line: int,
        column: int,
        source_line: str = "",
        found: str | None = None,
        expected: list[str] | None = None,
        source: str | None = None,
    ):
        super().__init__(message, line=line, column=column, found=found, expected=expected or None, source=source)
        self.source_line = source_line
        self.found = found
        self.expected = expected or []

    def pretty(self) -> str:
        """The message with the source line and a caret under the offending column."""
        text = self.source_line.expandtabs(1)
        caret = " " * max(0, (self.column or 1) - 1) + "^"
        origin = f"{self.details.get('source')}:" if self.details.get("source") else ""
        return f"{origin}{self.line}:{self.column}: {self.message}\n  {text}\n  {caret}"


class InvalidRequestBody(QlError):
    """The gateway request's body cannot be read as its declared media type and charset."""

    status = 400


class ScriptTooLong(QlError):
    """A script longer than ``gateway.maxScriptLength``: refused before it is parsed, on the
    gateway (a caller's) and by ``qlgate run`` alike, since compiling takes time and memory
    in proportion to its length (4 MB: over a minute and 600 MB)."""

    status = 400


class CompileError(QlError):
    """The script parses but cannot run: unresolved symbol, cycle, duplicate assignment…"""

    status = 400


class ConfigError(QlError):
    status = 400


class MissingExtra(ConfigError):
    """A feature whose optional dependencies are not installed (``qlgate/extras.py``):
    ``install`` is the command that brings them, e.g. ``pip install 'qlgate[cluster]'``.
    The deployment's set-up, not the caller's input: a gateway answers 500, the CLI
    exits 2 like any other unusable set-up."""

    status = 500

    def __init__(self, message: str, *, install: str, extra: str | None = None):
        super().__init__(message, install=install, extra=extra)
        self.install = install
        self.extra = extra


class StatementError(QlError):
    """A statement failed while running."""

    status = 500


class TableNotFound(StatementError):
    status = 400


class UnsupportedVerb(StatementError):
    status = 400


class AmbiguousTable(StatementError):
    status = 400


class MissingParameter(StatementError):
    status = 400


class InvalidParameter(StatementError):
    status = 400


class UnknownParameter(InvalidParameter):
    """A where name the table never reads (a misspelt parameter), refused before anything is sent."""


class FanOutLimit(StatementError):
    status = 400


class ScriptBudgetExceeded(StatementError):
    """A run built more than config ``scriptBudget`` allows."""

    status = 400


class RequestBytesExceeded(StatementError):
    """A request's upstream answers came to more bytes than it may read (``gateway.maxRequestBytes``)."""

    status = 400


class UpstreamError(StatementError):
    """The upstream answered a non-2xx status (after status patching)."""

    def __init__(
        self,
        message: str,
        *,
        status: int,
        uri: str | None = None,
        headers: dict | None = None,
        body: Any = None,
        upstream_status: int | None = None,
    ):
        gateway_status = 400 if 400 <= status < 500 else 502
        super().__init__(
            message,
            status=gateway_status,
            uri=uri,
            headers=headers,
            body=body,
            upstream_status=upstream_status if upstream_status is not None else status,
        )


class UpstreamUnavailable(StatementError):
    """Network failure, redirect failure, oversized or undecodable response."""

    status = 502


class UpstreamThrottled(UpstreamError):
    """The upstream answered 429 (Too Many Requests) and the call was not retried, or
    was still refused after waiting its ``Retry-After``: the gateway answers 429 too,
    with ``Retry-After`` (``retry_after``, whole seconds) and the ``table`` named."""

    def __init__(
        self,
        message: str,
        *,
        table: str,
        retry_after: int,
        uri: str | None = None,
        headers: dict | None = None,
        body: Any = None,
    ):
        super().__init__(message, status=429, uri=uri, headers=headers, body=body)
        self.status = 429
        self.retry_after = retry_after
        self.details["table"] = table
        self.details["retry_after"] = retry_after


class TableBackingOff(UpstreamUnavailable):
    """A call not sent because its table is backing off (spec §10.6 item 4) and the
    wait would outlast what its request may wait; ``retry_after`` says when (seconds)."""

    def __init__(self, message: str, *, table: str | None = None, retry_after: int = 1):
        # defaults: a copy (``copy.copy``, as single flight makes) calls this with the message only
        super().__init__(message, table=table, retry_after=retry_after)
        self.retry_after = retry_after


class UpstreamTimeout(UpstreamUnavailable):
    status = 504


class TransformError(UpstreamUnavailable):
    status = 502


class AuthRejected(StatementError):
    status = 401


class PatchError(StatementError):
    status = 500


class UdfNotFound(StatementError):
    status = 400


class UdfError(StatementError):
    status = 500
