"""One client connection of the gateway: HTTP/1.1 read with httptools (llhttp,
Node.js's parser) and answered in order, apart from the request cycle (the
pipeline and its handlers, which see a whole ``Request`` and give back a
``Response``). What a connection does with bytes is here; what it owes its
peers (deadlines, the bytes of heads read at once, how many connections) is
``limits.py``.

What a connection holds to:
- a request line (the URL) up to ``gateway.maxScriptLength`` of script, header
  fields up to 8,190 bytes each, ``MAX_HEADER_BYTES`` and ``MAX_HEADERS`` in all,
  one ``Host`` (required in HTTP/1.1) and no other single-valued header twice; a
  header name that is not an RFC 9110 token never gets past llhttp; beyond those,
  or bytes that are not HTTP: 400 in the error shape, one access-log line, closed;
- a body over ``gateway.maxBodyBytes``: 413 (said as soon as the head declares
  it), the connection closed without reading the rest; an ``Expect`` other than
  ``100-continue``: 417; an ``Upgrade`` is answered as a plain request and closes;
- a request must arrive whole, body included, within ``READ_TIMEOUT_S`` of its
  first byte (408 otherwise), on every endpoint; an idle keep-alive connection
  closes after ``IDLE_TIMEOUT_S``; a client that does not read its answers is not
  sent more, and at most ``MAX_QUEUED`` of its pipelined requests are read ahead;
- a client gone before its request arrived whole is one access-log line;
- keep-alive and ``Connection: close`` (HTTP/1.0 too, each answer in its
  request's version), ``Expect: 100-continue``, HEAD, chunked bodies, pipelined
  requests answered in order;
- a connection closed after an answer is closed gracefully: what the client still
  sends is read and dropped for a while, so the close does not reset the answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from typing import TYPE_CHECKING, NamedTuple, NoReturn

import httptools

from . import accesslog
from .limits import IDLE_TIMEOUT_S, LINGER_BYTES, LINGER_S, READ_TIMEOUT_S, ConnectionTimer
from .pipeline import answer
from .request import MultiMap, Request
from .response import BadHeader, Response, encode, error_response, json_response

if TYPE_CHECKING:
    from .server import Server

log = logging.getLogger("qlgate.server")

MAX_FIELD_BYTES = 8190  # a header's name and value
MAX_HEADERS = 128
MAX_HEADER_BYTES = 64 * 1024  # all of a head's header fields together
MAX_QUEUED = 16  # pipelined requests read ahead of their answers; the rest waits unparsed
FEED_BYTES = 4096  # parsed at a time: a full queue stops the parsing within this many bytes

TOO_LONG = "the request is malformed: its request line or a header is over the size limit"
BUSY_READING = "the gateway is reading too many request heads at once; try again"
# RFC 9110's single-valued request headers, refused when given twice
SINGLETONS = (
    "Content-Length",
    "Content-Location",
    "Content-Range",
    "Content-Type",
    "ETag",
    "Host",
    "Max-Forwards",
    "Server",
    "Transfer-Encoding",
    "User-Agent",
)


class _Stop(Exception):
    """Raised in a parser callback: nothing more of this connection is parsed."""


class _Queued(NamedTuple):
    """A request read whole, waiting for its answer: how to answer it (its HTTP
    version, keep-alive) is its own, not that of the request read after it."""

    request: Request
    keep_alive: bool
    version: str
    refusal: Response | None  # answered without the pipeline: a request refused from its head


class Connection(asyncio.Protocol):
    """One client connection, from accept to close."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.gateway = server.gateway
        self.policy = server.gateway.policy
        self.transport: asyncio.Transport | None = None
        self.remote: str | None = None
        self.parser = httptools.HttpRequestParser(self)
        self.loop = asyncio.get_running_loop()
        self.queue: deque[_Queued] = deque()
        self.backlog: bytes | None = None  # read, not yet parsed: the queue was full
        self.serving: asyncio.Task[None] | None = None
        self.closed = False
        self.reading = True
        self.writable: asyncio.Future[None] | None = None  # set while the client does not read
        self.timer = ConnectionTimer(self.loop, self._timed_out)
        self.lingering = 0  # closing: bytes of the client's still to discard, at most
        self.stopped = False  # nothing more is parsed: the answers read go out, then ``last``, then the close
        self.last: Response | None = None  # a malformed request's answer, once the ones before it are out
        # the message being read
        self.in_message = False
        self.in_head = False
        self.piece_size = 0  # of the slice being parsed
        self.message_bytes = 0  # read since the message began (head, chunk framing, body, trailers)
        self.url = bytearray()
        self.header_bytes = 0
        self.headers: list[tuple[str, str]] = []
        self.body = bytearray()
        self.request: Request | None = None
        self.version = "1.1"
        self.expect_continue = False  # a 100 Continue is owed once the answers before it are out
        self.held = 0  # bytes of the head under way counted against the server's head budget

    # ------------------------------------------------------------------ asyncio
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # a stream's transport (uvloop's is not a subclass)
        peer = transport.get_extra_info("peername")
        self.remote = peer[0] if isinstance(peer, (tuple, list)) and peer else None
        if not self.server.admit(self):
            return
        self.timer.set(IDLE_TIMEOUT_S)

    def connection_lost(self, exc: BaseException | None) -> None:
        if self.in_message and not self.closed and not self.stopped:
            method = self.request.method if self.request is not None else None
            accesslog.write_unanswered(
                self.gateway, 0, self.remote, "the client closed the connection before its request arrived", method
            )
        self.closed = True
        self.timer.stop()
        self._release_head()
        self.url, self.body, self.headers, self.backlog = bytearray(), bytearray(), [], None
        self.server.forget(self)
        if self.writable is not None and not self.writable.done():
            self.writable.set_result(None)

    def eof_received(self) -> bool:
        return False  # the transport closes itself; answers under way are not sent

    def pause_writing(self) -> None:
        if self.writable is None or self.writable.done():
            self.writable = self.loop.create_future()

    def resume_writing(self) -> None:
        if self.writable is not None and not self.writable.done():
            self.writable.set_result(None)

    def data_received(self, data: bytes) -> None:
        if self.lingering:  # closing: read and dropped, so the close does not reset the answers sent
            self.lingering -= len(data)
            if self.lingering <= 0:
                self.abort()
            return
        if self.stopped:
            return
        if self.backlog is not None:  # the queue is full: parsed once it has room
            self.backlog += data
            return
        self._feed(data)

    def _feed(self, data: bytes) -> None:
        """Parse ``data`` a slice at a time, so that no more than ``MAX_QUEUED`` requests
        wait for answers: what is left once the queue is full waits unparsed."""
        size = len(data)
        for start in range(0, size, FEED_BYTES):
            piece = data[start : start + FEED_BYTES] if size > FEED_BYTES else data
            if not self._feed_piece(piece):
                return
            if len(self.queue) >= MAX_QUEUED and start + FEED_BYTES < size:
                self.backlog = data[start + FEED_BYTES :]
                self._pause_reading()
                return

    def _feed_piece(self, piece: bytes) -> bool:
        """Parse one slice; False once parsing has stopped."""
        self.piece_size = len(piece)
        if self.in_message:
            self.message_bytes += len(piece)
            # what httptools gathers in memory before a callback sees it (a header value
            # that never ends, a trailer, chunk framing) is bounded by the bytes that came
            if self.in_head and not self._hold(len(piece)):
                return self._stopped_now(self._malformed(BUSY_READING, status=503))
            if self.message_bytes - len(self.body) > self.server.max_head_bytes + 8 * len(self.body):
                return self._stopped_now(self._malformed(TOO_LONG))
        try:
            self.parser.feed_data(piece)
        except httptools.HttpParserCallbackError:
            if not self.stopped:  # a bug in a callback, not the client's doing
                log.exception("failed to read a request from %s", self.remote)
                self.abort()
                return False
        except httptools.HttpParserUpgrade:
            self.stopped = True  # not switched: answered as a plain request (queued already), then closed
        except httptools.HttpParserError as error:
            self.last, self.stopped = self._malformed(_problem(error)), True
        if self.stopped:
            self._after_stop()
            return False
        return True

    # ------------------------------------------------------------------ httptools
    def on_message_begin(self) -> None:
        self.in_message = self.in_head = True
        self.message_bytes = self.piece_size
        if not self._hold(self.piece_size):
            self._stop(self._malformed(BUSY_READING, status=503))
        self.url, self.header_bytes, self.headers = bytearray(), 0, []
        self.body = bytearray()
        self.request = None
        self.expect_continue = False
        self.timer.set(READ_TIMEOUT_S)

    def on_url(self, url: bytes) -> None:
        self.url += url
        if len(self.url) > self.policy.max_request_line:
            self._stop(self._malformed(TOO_LONG))

    def on_header(self, name: bytes, value: bytes) -> None:
        size = len(name) + len(value)
        self.header_bytes += size
        if size > MAX_FIELD_BYTES or self.header_bytes > MAX_HEADER_BYTES:
            self._stop(self._malformed(TOO_LONG))
        if len(self.headers) >= MAX_HEADERS:
            self._stop(self._malformed("the request is malformed: it has too many headers"))
        self.headers.append((name.decode("utf-8", "surrogateescape"), value.decode("utf-8", "surrogateescape")))

    def on_headers_complete(self) -> None:
        self.in_head = False
        parser = self.parser
        raw_target = self.url.decode("utf-8", "surrogateescape")
        self.url = bytearray()
        self._release_head()
        method = parser.get_method().decode("ascii", "replace")
        self.version = parser.get_http_version()
        target = _origin_form(raw_target)
        if target is None:
            self._stop(self._malformed("the request is malformed: its target is not a path (RFC 9112 §3.2)"))
        headers = MultiMap(self.headers, fold=True)
        self.headers = []
        if headers.distinct() != len(headers):  # a name given twice
            twice = next((name for name in SINGLETONS if len(headers.getall(name)) > 1), None)
            if twice is not None:
                self._stop(self._malformed(f"the request is malformed: the header {twice} is given more than once"))
        if self.version == "1.1" and "Host" not in headers:
            self._stop(self._malformed("the request is malformed: HTTP/1.1 needs a Host header (RFC 9112 §3.2)"))
        chunked = "chunked" in headers.get("Transfer-Encoding", "").lower()
        length = headers.get("Content-Length")
        declared = int(length) if length is not None and length.isdigit() else 0
        request = Request(self.gateway, method, target, headers, self.remote, b"", chunked or declared > 0)
        self.request = request
        if declared > self.policy.max_body_bytes:
            self._refuse(request, _too_large(self.policy.max_body_bytes))  # the body is not read
        expect = headers.get("Expect")
        if expect is not None and self.version == "1.1":
            if expect.lower() != "100-continue":
                self._refuse(
                    request,
                    error_response(
                        f"Expect: {expect[:60]} is not understood; the gateway knows 100-continue", status=417
                    ),
                )
            self.expect_continue = True
            self._continue()

    def on_body(self, body: bytes) -> None:
        self.expect_continue = False  # it sent its body without waiting
        self.body += body
        if len(self.body) > self.policy.max_body_bytes and self.request is not None:
            self._refuse(self.request, _too_large(self.policy.max_body_bytes))

    def on_message_complete(self) -> None:
        request = self.request
        self.in_message = False
        self.expect_continue = False
        self.request = None
        if request is None:
            return
        request.body = bytes(self.body)
        self.body = bytearray()
        self._enqueue(_Queued(request, self.parser.should_keep_alive(), self.version, None))

    # ------------------------------------------------------------------ the head budget
    def _hold(self, size: int) -> bool:
        """Count ``size`` more bytes of a head against the server's budget; False if it has no room."""
        if not self.server.heads.take(size):
            return False
        self.held += size
        return True

    def _stopped_now(self, last: Response) -> bool:
        """Stop outside a parser callback (``_stop`` raises out of one); False, for ``_feed_piece``."""
        with contextlib.suppress(_Stop):
            self._stop(last)
        self._after_stop()
        return False

    def _release_head(self) -> None:
        if self.held:
            self.server.heads.give_back(self.held)
            self.held = 0

    # ------------------------------------------------------------------ serving
    def _enqueue(self, queued: _Queued) -> None:
        self.queue.append(queued)
        if not self.in_message:
            self.timer.cancel()
        if self.serving is None:
            self.serving = self.loop.create_task(self._serve())

    def _continue(self) -> None:
        """Send the 100 Continue owed, unless answers before it are still to go out."""
        if self.expect_continue and not self.queue and self.serving is None and self.transport is not None:
            self.expect_continue = False
            self.transport.write(b"HTTP/1.1 100 Continue\r\n\r\n")

    async def _serve(self) -> None:
        try:
            await self._answer_queue()
        except Exception:  # a bug in the connection: logged, and this connection given up
            log.exception("failed to answer %s", self.remote)
            self.queue.clear()
            self.serving = None
            self.abort()

    async def _answer_queue(self) -> None:
        server = self.server
        try:
            while self.queue and not self.closed:
                request, keep_alive, version, refusal = self.queue.popleft()
                response = refusal if refusal is not None else await answer(request)
                if server.closing or response.close or (self.stopped and self.last is None and not self.queue):
                    keep_alive = False  # the last answer before the connection closes says so
                try:
                    data = encode(response, request.method == "HEAD", keep_alive, version)
                except BadHeader as error:
                    log.error("answer to %s %s not sent: %s", request.method, request.path, error)
                    data = encode(json_response({"err": "internal error"}, status=500), False, False, version)
                    keep_alive = False
                if self.closed or self.transport is None:
                    return
                self.transport.write(data)
                if not keep_alive:
                    self._close_after_answers()
                    return
                if self.writable is not None and not self.writable.done():
                    await self.writable  # the client reads slowly: no next answer before it has this one
        finally:
            self.serving = None
        if self.closed:
            return
        if self.stopped:
            self._after_stop()
        elif server.closing:
            self._close_after_answers()
        elif self.backlog is not None:
            backlog, self.backlog = self.backlog, None
            self._resume_reading()
            self._feed(backlog)
        else:
            self._resume_reading()
            self._continue()
            if not self.in_message:
                self.timer.set(IDLE_TIMEOUT_S)

    # ------------------------------------------------------------------ stopping
    def _malformed(self, problem: str, status: int = 400) -> Response:
        accesslog.write_unanswered(self.gateway, status, self.remote, problem)
        response = error_response(problem, status)
        if status == 503:
            response.headers["Retry-After"] = "1"
        return response

    def _stop(self, last: Response | None) -> NoReturn:
        """Parse nothing more; answer what was read, then ``last`` (if any), then close.
        Raised out of a parser callback (the rest of the bytes at hand are not parsed)."""
        if not self.stopped:
            self.stopped, self.last = True, last
            self.in_message = self.in_head = False
            self._release_head()
        raise _Stop

    def _refuse(self, request: Request, response: Response) -> NoReturn:
        """Answer ``request`` from its head with ``response`` (in its turn), and read nothing more."""
        self.queue.append(_Queued(request, False, self.version, response))
        self._stop(None)

    def _after_stop(self) -> None:
        """Once the answers before it are out: the last answer, then close."""
        self._pause_reading()
        self.timer.cancel()
        self.backlog = None
        self.body = bytearray()
        if self.serving is not None:
            return  # _answer_queue comes back here when it is done
        if self.queue:
            self.serving = self.loop.create_task(self._serve())
            return
        last, self.last = self.last, None
        if last is not None and self.transport is not None and not self.closed:
            self.transport.write(encode(last, False, False, "1.1"))
        self._close_after_answers()

    def _close_after_answers(self) -> None:
        """Close once what was written has gone out. The client's unread bytes are read
        and dropped first (for up to ``LINGER_S``, at most ``LINGER_BYTES``): a socket
        closed with input unread is reset, and the reset can destroy the answers still
        on their way (RFC 9112 §9.6)."""
        transport = self.transport
        if transport is None or self.closed or self.lingering:
            return
        if not transport.can_write_eof():
            self.abort()
            return
        self.stopped = True
        self.lingering = LINGER_BYTES
        transport.write_eof()
        self._resume_reading()
        self.timer.stop()
        self.timer.after(LINGER_S, self.abort)

    def close_if_idle(self) -> None:
        if self.serving is None and not self.in_message:
            self._close_after_answers()

    def abort(self) -> None:
        self.timer.stop()
        if self.transport is not None and not self.closed:
            self.transport.close()

    def _timed_out(self) -> None:
        if self.serving is not None or self.queue:  # answers are under way: they go out, then the close
            self.stopped = True
            self._pause_reading()
            return
        if self.in_message and self.transport is not None and not self.stopped:
            method = self.request.method if self.request is not None else None
            problem = f"the request did not arrive within {READ_TIMEOUT_S:g} s"
            accesslog.write_unanswered(self.gateway, 408, self.remote, problem, method)
            self.stopped, self.in_message = True, False
            self._release_head()
            self.transport.write(encode(error_response(problem, status=408), False, False, "1.1"))
            self._close_after_answers()
            return
        self.abort()

    # ------------------------------------------------------------------ flow
    def _pause_reading(self) -> None:
        if self.reading and self.transport is not None and not self.closed:
            self.reading = False
            self.transport.pause_reading()

    def _resume_reading(self) -> None:
        if not self.reading and self.transport is not None and not self.closed:
            self.reading = True
            self.transport.resume_reading()


def _origin_form(target: str) -> str | None:
    """The path and query of a request target: as it is when it starts with ``/``; an
    absolute URL's (RFC 9112 §3.2.2, which a server must accept); else None."""
    if target.startswith("/"):
        return target
    for scheme in ("http://", "https://"):
        if target[: len(scheme)].lower() == scheme:
            rest = target[len(scheme) :]
            slash = rest.find("/")
            question = rest.find("?")
            if slash == -1 and question == -1:
                return "/"
            if slash == -1 or (question != -1 and question < slash):
                return "/" + rest[question:]
            return rest[slash:]
    return None


def _too_large(limit: int) -> Response:
    response = error_response(f"request body is over the {limit}-byte limit (gateway.maxBodyBytes)", status=413)
    response.close = True
    return response


def _problem(error: Exception) -> str:
    text = str(error).strip().rstrip(".")
    return f"the request is malformed: {text[:200]}" if text else "the request is malformed"
