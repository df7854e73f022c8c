"""One HTTP/1.1 connection to an upstream: an asyncio ``Protocol`` that writes a request
and reads its answer with ``httptools`` (llhttp, the parser of Node.js).

Why our own: a fan-out's cost is the HTTP machinery, not the language. Measured on this
machine (``bench/http_clients.py``), aiohttp's client spends about 110 µs of CPU per
keep-alive GET where this protocol and a pool spend under 20; the parser is C and the
rest is a few attribute writes per callback. What aiohttp did for us and this module
does instead, each guarded by ``tests/http/test_wire.py`` against real and hostile
servers:

- an idle timeout (connect, then every read) rather than a total deadline (spec §10.6):
  one timer per request, moved forward lazily, so a slow trickle of bytes keeps a call
  alive and a silent server ends it;
- caps on the answer: the body (``limit``, declared or streamed), the number and size of
  header lines (a header flood is a refused answer, not a memory hog);
- the framings: Content-Length, chunked, and a body ended by the server's close
  (HTTP/1.0); an answer cut short (early close, a lying Content-Length, a bad chunk size)
  is an error, never a short body taken as whole;
- 1xx interim answers skipped, HEAD answers without a body, keep-alive decided from the
  version and ``Connection``;
- bytes arriving while no request is out (a server that sent more than it declared)
  retire the connection instead of poisoning the next answer.
"""

from __future__ import annotations

import asyncio

import httptools

from ..timers import EARLY_S, Scheduled, board
from .budget import AnswerBudget

MAX_HEADERS = 200  # lines in one answer's head
MAX_HEAD_BYTES = 64 * 1024  # the head's total size; aiohttp's default limits are of the same order
# fields with one value: said twice, the last one counts (what aiohttp's answers gave the
# engine); any other field said twice is one list, its values joined with ", "
SINGLE_VALUED = frozenset(
    {
        "content-type",
        "content-length",
        "content-encoding",
        "location",
        "retry-after",
        "date",
        "etag",
        "last-modified",
        "expires",
        "age",
        "server",
    }
)


class WireError(Exception):
    """The connection failed or the answer was malformed, cut short or over a cap.

    ``fresh`` is true when nothing of an answer had arrived: a request on a reused
    keep-alive connection that the server had just closed may be sent again safely."""

    def __init__(self, message: str, *, fresh: bool = False, over_limit: bool = False) -> None:
        super().__init__(message)
        self.fresh = fresh
        self.over_limit = over_limit


class BudgetSpent(WireError):
    """The request this answer is read for may read no more bytes (``budget.AnswerBudget``)."""


class WireTimeout(Exception):
    """No byte arrived within the idle timeout."""


class _Surplus(Exception):
    """Bytes after the end of the answer, within the same read."""


class RawResponse:
    __slots__ = ("body", "headers", "keep_alive", "reason", "status")

    def __init__(self, status: int, reason: str, headers: dict[str, str], body: bytes, keep_alive: bool) -> None:
        self.status = status
        self.reason = reason
        self.headers = headers  # lower-case names; repeated headers joined with ", "
        self.body = body  # as on the wire (content-encoded)
        self.keep_alive = keep_alive


class Connection(asyncio.Protocol):
    """A keep-alive connection that carries one request at a time (``exchange``)."""

    # the answer being read, set by ``_reset`` before each request
    _limit: int
    _budget: AnswerBudget | None
    _head_only: bool
    _status: int
    _reason: bytes
    _headers: dict[str, str]
    _header_count: int
    _head_bytes: int
    _head_received: int
    _head_done: bool
    _keep_alive: bool
    _until_close: bool
    _body: list[bytes]
    _size: int
    _got_bytes: bool
    _error: WireError | None
    _done: bool

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.timers = board(loop)  # the loop's one timer for every call's idle timeout
        self.transport: asyncio.Transport | None = None
        self.closed = False
        self.idle_since = 0.0  # loop time it went back to its pool
        self.uses = 0
        self._waiter: asyncio.Future[RawResponse] | None = None
        self._parser: httptools.HttpResponseParser | None = None
        self._reset(0, False)
        self._timer: Scheduled | None = None
        self._timeout = 0.0
        self._last_read = 0.0

    # ---------------------------------------------------------------- asyncio.Protocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        waiter = self._waiter
        if waiter is None or waiter.done():
            return
        if self._head_done and self._until_close and exc is None:
            self._finish(keep_alive=False)  # HTTP/1.0 style: the close ends the body (a reset does not)
        elif self._got_bytes:
            self._fail(WireError("the connection closed before the answer ended"))
        else:
            reason = f": {exc}" if exc is not None else ""
            self._fail(WireError(f"the server closed the connection without answering{reason}", fresh=True))

    def data_received(self, data: bytes) -> None:
        if self._waiter is None or self._parser is None:
            # nothing asked: more bytes than the last answer declared, or a server talking
            # out of turn. Whatever they are, they would be read as the next answer.
            self.close()
            return
        self._got_bytes = True
        self._last_read = self.loop.time()
        try:
            self._parser.feed_data(data)
        except httptools.HttpParserCallbackError:
            # over a cap, or bytes after the answer's end (its waiter has its answer: only the
            # connection is retired)
            self._fail(self._error or WireError("more bytes than the answer declared"))
            return
        except httptools.HttpParserError as e:
            self._fail(WireError(f"malformed answer: {e}"))
            return
        if not self._head_done:
            # the parser gathers a header line whole before it calls on_header: one endless
            # line would grow without bound, so the head is measured as it arrives (a read
            # that ended the head is not counted: the rest of it is body)
            self._head_received += len(data)
            if self._head_received > MAX_HEAD_BYTES:
                self._fail(WireError(f"the answer's head is over {MAX_HEAD_BYTES} bytes", over_limit=True))

    # ---------------------------------------------------------------- httptools callbacks

    def on_status(self, reason: bytes) -> None:
        if self._done:
            raise _Surplus
        self._reason += reason  # a reason phrase split across reads comes in pieces

    def on_header(self, name: bytes, value: bytes) -> None:
        if self._done:
            raise _Surplus
        self._header_count += 1
        self._head_bytes += len(name) + len(value) + 4
        if self._header_count > MAX_HEADERS or self._head_bytes > MAX_HEAD_BYTES:
            self._error = WireError(
                f"the answer's head is over {MAX_HEADERS} lines or {MAX_HEAD_BYTES} bytes", over_limit=True
            )
            raise self._error
        key = name.decode("latin-1").lower()
        text = value.decode("utf-8", "surrogateescape")  # as aiohttp read them: UTF-8 where servers send it
        headers = self._headers
        if key in headers and key not in SINGLE_VALUED:
            headers[key] = headers[key] + ", " + text  # a list-valued field said twice (RFC 9110 §5.3)
        else:
            headers[key] = text

    def on_headers_complete(self) -> None:
        if self._done:
            raise _Surplus
        parser = self._parser
        assert parser is not None
        status = parser.get_status_code()
        if status < 200:  # an interim answer (100 Continue, 103 Early Hints): the real one follows
            return
        self._status = status
        self._head_done = True
        self._keep_alive = parser.should_keep_alive()
        headers = self._headers
        length = headers.get("content-length")
        if length is not None and not self._head_only and status not in (204, 304):  # those have no body
            try:
                declared = int(length)
            except ValueError:
                declared = -1
            if declared > self._limit:
                self._error = WireError(f"is {declared} bytes, over the {self._limit}-byte limit", over_limit=True)
                raise self._error
        self._until_close = (
            length is None
            and "chunked" not in headers.get("transfer-encoding", "").lower()
            and status not in (204, 304)
        )
        if self._head_only:
            self._finish(keep_alive=self._keep_alive and not self._until_close)

    def on_body(self, chunk: bytes) -> None:
        if self._done:
            raise _Surplus
        self._size += len(chunk)
        if self._size > self._limit:
            self._error = WireError(f"exceeds the {self._limit}-byte limit", over_limit=True)
            raise self._error
        budget = self._budget
        if budget is not None and not budget.take(len(chunk)):
            self._error = BudgetSpent("the request's answers are over its budget", over_limit=True)
            raise self._error
        self._body.append(chunk)

    def on_message_complete(self) -> None:
        if self._done:
            raise _Surplus
        if not self._head_done:  # the end of an interim answer
            self._reason = b""
            self._headers = {}
            self._header_count = self._head_bytes = 0
            return
        if self._waiter is not None and not self._waiter.done():
            self._finish(keep_alive=self._keep_alive)

    # ---------------------------------------------------------------- requests

    async def exchange(
        self, data: bytes, timeout: float, limit: int, head_only: bool, budget: AnswerBudget | None = None
    ) -> RawResponse:
        """Write one request (head and body, already serialised) and read its answer.

        The caller retires the connection (``close``) when this raises or is cancelled:
        its state is then unknown."""
        waiter = self.begin(data, timeout, limit, head_only, budget)
        try:
            return await waiter
        finally:
            self.end()

    def begin(
        self, data: bytes, timeout: float, limit: int, head_only: bool, budget: AnswerBudget | None = None
    ) -> asyncio.Future[RawResponse]:
        """``exchange`` in two halves, for a caller that awaits the answer itself (the
        HTTP client: no coroutine frame of this connection's while a call waits on
        its socket): write the request and return the future of its answer; ``end``
        once it is resolved or given up."""
        transport = self.transport
        if transport is None or self.closed:
            raise WireError("the connection is closed", fresh=True)
        self._reset(limit, head_only)
        self._budget = budget
        self._parser = httptools.HttpResponseParser(self)
        loop = self.loop
        self._waiter = waiter = loop.create_future()
        self.uses += 1
        transport.write(data)
        self._timeout = timeout
        self._last_read = now = loop.time()
        self._timer = self.timers.at(now + timeout, self._check_idle)
        return waiter

    def end(self) -> None:
        """The exchange is over (answered, failed or given up): its timer and parser go."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._waiter = None
        self._parser = None

    def close(self) -> None:
        self.closed = True
        if self.transport is not None:
            self.transport.close()

    # ---------------------------------------------------------------- internals

    def _reset(self, limit: int, head_only: bool) -> None:
        self._limit = limit
        self._head_only = head_only
        self._status = 0
        self._reason = b""
        self._headers = {}
        self._header_count = 0
        self._head_bytes = 0
        self._head_received = 0
        self._head_done = False
        self._keep_alive = False
        self._until_close = False
        self._body = []
        self._size = 0
        self._got_bytes = False
        self._error = None
        self._done = False

    def _finish(self, *, keep_alive: bool) -> None:
        self._done = True
        body = self._body
        waiter = self._waiter
        assert waiter is not None
        raw = RawResponse(
            self._status,
            self._reason.decode("latin-1"),
            self._headers,
            body[0] if len(body) == 1 else b"".join(body),
            keep_alive,
        )
        waiter.set_result(raw)

    def _fail(self, error: Exception) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_exception(error)
        self.close()

    def _check_idle(self) -> None:
        """The idle timer: moved forward to the last read rather than re-armed on every
        read, so a stream of small reads costs one comparison each."""
        waiter = self._waiter
        if waiter is None or waiter.done():
            return
        due = self._last_read + self._timeout
        if self.loop.time() >= due - EARLY_S:
            self._fail(WireTimeout())
        else:
            self._timer = self.timers.at(due, self._check_idle)
