"""The gateway's own HTTP/1.1 front: it reads every request, serves the hot
ones (``/q`` and the routes) itself, and hands each connection whose request is
for anything else (the describe endpoints, ``/health``, the jobs API, the
console) to aiohttp.

Why: a served ``select *`` cost about 220 µs of CPU on aiohttp's ``web``, of
which its request and response machinery took the largest share; an asyncio
``Protocol`` around httptools' parser (llhttp, Node.js's parser) and one
``write`` per answer costs a fraction of that (issue 18, ``bench/vs_qlio.py``).
The hot requests still run through the same middleware and handlers as on
aiohttp (``incoming.Incoming`` reads like aiohttp's request), so auth, the
error shape, the request id, JSONP, compression and the access log are one code.

What the front holds to, as aiohttp did or better:
- a request line (the URL) up to ``gateway.maxScriptLength`` of script, header
  fields up to 8,190 bytes, at most 128 of them, a head (and a chunked body's
  framing and trailers) of bounded size, one ``Host`` (required in HTTP/1.1) and no
  other single-valued header twice; beyond those, or bytes that are not HTTP: 400
  in the error shape, one access-log line, and the connection closed;
- a body over ``gateway.maxBodyBytes``: 413 (said as soon as the head declares
  it), the connection closed without reading the rest; an ``Expect`` other than
  ``100-continue``: 417, likewise;
- slow clients: a request must arrive whole within ``READ_TIMEOUT_S`` of its first
  byte (408 otherwise), and an idle keep-alive connection closes after
  ``IDLE_TIMEOUT_S``; a client that does not read its answers is not sent more,
  and at most ``MAX_QUEUED`` of its pipelined requests are parsed ahead;
- keep-alive and ``Connection: close`` (HTTP/1.0 too, each answer in its request's
  version), ``Expect: 100-continue`` (once the answers before it are out), HEAD
  (the GET's head, no body), chunked bodies, pipelined requests answered in order;
- no header an answer carries has a control character in it (500 instead);
- a connection closed after an answer is closed gracefully: what the client still
  sends is read and dropped for a while, so the close does not reset the answer;
- a draining shutdown: idle connections close, in-flight requests finish.

A hand-over passes aiohttp the connection with the request's bytes as they came,
so it parses them as if it had read them itself, and keeps the connection. A
pipelined request for aiohttp that does not start a read (rare: the bytes before
it belong to an earlier request) cannot be passed on whole: the front answers the
requests before it and closes the connection, and the client sends it again on a
new one (RFC 9112 §9.3.2).
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable
from email.utils import formatdate
from typing import Any, NamedTuple

import httptools
from aiohttp import web
from multidict import CIMultiDict, CIMultiDictProxy

from ..timers import EARLY_S, Scheduled, board
from .handlers import handle_q, handle_route
from .incoming import Incoming
from .middleware import POLICY, gateway_middleware, log_unparsed
from .policy import GatewayPolicy
from .responses import json_response

log = logging.getLogger("qlgate.server")

MAX_FIELD_BYTES = 8190  # a header's name and value (aiohttp's max_field_size)
MAX_HEADERS = 128  # aiohttp's max_headers
READ_TIMEOUT_S = 30.0  # from a request's first byte to its last
IDLE_TIMEOUT_S = 75.0  # a keep-alive connection with no request under way
MAX_QUEUED = 16  # pipelined requests read ahead of their answers; the rest waits unparsed
FEED_BYTES = 4096  # parsed at a time: a full queue stops the parsing within this many bytes
LINGER_S = 10.0  # closing a connection: how long the client's unread bytes are read and dropped
LINGER_BYTES = 1 << 20  # and how many at most

TOO_LONG = "the request is malformed: its request line or a header is over the size limit"


class ColdPaths:
    """The paths of the app's own endpoints, which aiohttp serves: exact paths, and
    prefixes of those with a variable part (``/jobs/{id}`` → ``/jobs/``). Every
    other path is a route's (or nobody's), and the front serves it."""

    def __init__(self, app: web.Application, hot: tuple[str, ...]) -> None:
        exact: set[str] = set()
        prefixes: set[str] = set()
        for resource in app.router.resources():
            canonical = resource.canonical
            if canonical in hot:
                continue
            if isinstance(resource, web.PlainResource):
                exact.add(canonical)
            elif isinstance(resource, web.StaticResource):
                exact.add(canonical)
                prefixes.add(canonical.rstrip("/") + "/")
            else:  # a variable part: the path up to it
                prefixes.add(canonical.partition("{")[0] or "/")
        self.exact = frozenset(exact)
        self.prefixes = tuple(sorted(prefixes))

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and (path in self.exact or path.startswith(self.prefixes))


class Front:
    """What the connections of one server share: the app, its limits, the paths it
    leaves to aiohttp, and how to make an aiohttp connection to hand one over to."""

    def __init__(self, app: web.Application, aiohttp_protocol: Callable[[], asyncio.Protocol]) -> None:
        self.app = app
        self.policy: GatewayPolicy = app[POLICY]
        self.q_endpoint = self.policy.q_endpoint
        # the catch-all resource routes requests to the routes; "/q" is the ad-hoc endpoint
        self.cold = ColdPaths(app, hot=("/{tail}", "/q") if self.q_endpoint else ("/{tail}",))
        self.aiohttp_protocol = aiohttp_protocol
        self.max_head_bytes = self.policy.max_request_line + MAX_HEADERS * (MAX_FIELD_BYTES + 4) + 4096
        self.connections: set[FrontProtocol] = set()
        self.closing = False

    def pre_shutdown(self) -> None:
        """Stop taking requests: idle connections close now, busy ones after their answer."""
        self.closing = True
        for connection in list(self.connections):
            connection.close_if_idle()

    async def shutdown(self, timeout: float | None) -> None:
        """Let in-flight requests finish, for up to ``timeout`` seconds, then close."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while busy := [c.serving for c in self.connections if c.serving is not None]:
            left = None if deadline is None else deadline - loop.time()
            if left is not None and left <= 0:
                for task in busy:
                    task.cancel()  # past the drain: the workspace closes next, under their feet
                break
            await asyncio.wait(busy, timeout=left)  # and again: a request read meanwhile is served too
        for connection in list(self.connections):
            connection.abort()


class _Halt(Exception):
    """Raised in a parser callback to stop parsing the bytes at hand."""


Handler = Callable[..., Awaitable[web.StreamResponse]]


class _Queued(NamedTuple):
    """A request read whole, waiting for its answer: how to answer it (its HTTP
    version, keep-alive) is its own, not that of the request read after it."""

    incoming: Incoming
    keep_alive: bool
    version: str
    handler: Handler | None  # None: /q or the routes, by its endpoint


class FrontProtocol(asyncio.Protocol):
    """One client connection, until it closes or is handed to aiohttp."""

    def __init__(self, front: Front) -> None:
        self.front = front
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
        self.timers = board(self.loop)  # the loop's one timer for every connection's deadlines
        self.timer: Scheduled | None = None
        self.deadline: float | None = None  # when the request under way, or the idle wait, times out
        self.lingering = 0  # closing: bytes of the client's still to discard, at most
        # the message being read
        self.in_message = False
        self.in_head = False
        self.chunk = b""
        self.fresh = True  # no byte of ``chunk`` before this point belongs to an earlier message
        self.since_begin: list[bytes] | None = None  # the message's bytes as they came (for aiohttp)
        self.message_bytes = 0  # read since the message began (head, framing, body, trailers)
        self.url: list[bytes] = []
        self.url_bytes = 0
        self.headers: list[tuple[str, str]] = []
        self.body = bytearray()
        self.incoming: Incoming | None = None
        self.version = "1.1"
        self.expect_continue = False  # a 100 Continue is owed once the answers before it are out
        self.refusal: Handler = _too_large  # the answer to a request refused from its head
        # what stops reading: "aiohttp" (hand over once answered), "close", "malformed", "refuse"
        self.halted: str | None = None
        self.problem = ""

    # ------------------------------------------------------------------ asyncio
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # a stream's transport (uvloop's is not a subclass)
        peer = transport.get_extra_info("peername")
        self.remote = peer[0] if isinstance(peer, (tuple, list)) and peer else None
        self.front.connections.add(self)
        self._set_timer(IDLE_TIMEOUT_S)

    def connection_lost(self, exc: BaseException | None) -> None:
        self.closed = True
        self._stop_timer()
        self.front.connections.discard(self)
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
        if self.halted is not None:  # nothing more is parsed; kept only for aiohttp
            if self.since_begin is not None:
                self.since_begin.append(data)
            return
        if self.backlog is not None:  # the queue is full: parsed once it has room
            self.backlog += data
            return
        self._feed(data)

    def _feed(self, data: bytes) -> None:
        """Parse ``data`` a slice at a time, so that no more than ``MAX_QUEUED`` requests
        wait for answers: what is left once the queue is full waits unparsed."""
        for start in range(0, len(data), FEED_BYTES):
            piece = data[start : start + FEED_BYTES] if len(data) > FEED_BYTES else data
            if not self._feed_piece(piece):
                rest = data[start + FEED_BYTES :]
                if rest and self.halted == "aiohttp" and self.since_begin is not None:
                    self.since_begin.append(rest)
                return
            if len(self.queue) >= MAX_QUEUED and start + FEED_BYTES < len(data):
                self.backlog = data[start + FEED_BYTES :]
                self._pause_reading()
                return

    def _feed_piece(self, piece: bytes) -> bool:
        """Parse one slice; False once parsing has stopped (``halted``)."""
        self.chunk = piece
        if self.in_message:
            if self.since_begin is not None:
                self.since_begin.append(piece)
            self.message_bytes += len(piece)
            # the head, and whatever else of a message is not its body (chunk framing,
            # trailers, which httptools gathers in memory), is bounded
            if self.message_bytes - len(self.body) > self.front.max_head_bytes + 8 * len(self.body):
                self._malformed(TOO_LONG)
                return False
        else:
            self.fresh = True
        try:
            self.parser.feed_data(piece)
        except httptools.HttpParserCallbackError:
            if self.halted is None:  # a bug in a callback, not the client's doing
                log.exception("the front failed to read a request from %s", self.remote)
                self.abort()
                return False
        except httptools.HttpParserUpgrade:
            pass  # on_headers_complete handed it to aiohttp, which refuses or upgrades
        except httptools.HttpParserError as error:
            self._malformed(_problem(error))
            return False
        if self.halted is not None:
            self._after_halt()
            return False
        return True

    # ------------------------------------------------------------------ httptools
    def on_message_begin(self) -> None:
        self.in_message = self.in_head = True
        self.since_begin = [self.chunk] if self.fresh else None
        self.message_bytes = len(self.chunk)
        self.url, self.url_bytes, self.headers = [], 0, []
        self.body = bytearray()
        self.incoming = None
        self.expect_continue = False
        self._set_timer(READ_TIMEOUT_S)

    def on_url(self, url: bytes) -> None:
        self.url.append(url)
        self.url_bytes += len(url)
        if self.url_bytes > self.front.policy.max_request_line:
            self._halt("malformed", TOO_LONG)

    def on_header(self, name: bytes, value: bytes) -> None:
        if len(name) + len(value) > MAX_FIELD_BYTES:
            self._halt("malformed", TOO_LONG)
        if len(self.headers) >= MAX_HEADERS:
            self._halt("malformed", "the request is malformed: it has too many headers")
        self.headers.append((name.decode("utf-8", "surrogateescape"), value.decode("utf-8", "surrogateescape")))

    def on_headers_complete(self) -> None:
        self.in_head = False
        parser, front = self.parser, self.front
        target = b"".join(self.url).decode("utf-8", "surrogateescape")
        method = parser.get_method().decode("ascii", "replace")
        self.version = parser.get_http_version()
        if not target.startswith("/") or parser.should_upgrade():
            self._for_aiohttp()
        headers = CIMultiDictProxy(CIMultiDict(self.headers))
        if len(headers) != len({name.lower() for name, _ in self.headers}):  # a name given twice
            twice = _repeated_singleton(headers)
            if twice is not None:
                self._halt("malformed", f"the request is malformed: the header {twice} is given more than once")
        if self.version == "1.1" and "Host" not in headers:
            self._halt("malformed", "the request is malformed: HTTP/1.1 needs a Host header (RFC 9112 §3.2)")
        chunked = "chunked" in headers.get("Transfer-Encoding", "").lower()
        length = headers.get("Content-Length")
        declared = int(length) if length is not None and length.isdigit() else 0
        # the path decides who serves: reading it builds the request's URL, used again later
        incoming = Incoming(front.app, method, target, headers, self.remote, "/q", b"", chunked or declared > 0)
        path = incoming.path
        if path in front.cold:
            self._for_aiohttp()
        if path != "/q" or not front.q_endpoint:
            incoming.endpoint = "/{tail}"
        self.incoming = incoming
        if declared > front.policy.max_body_bytes:
            self.refusal = _too_large
            self._halt("refuse", "")  # answered at once; the body is not read
        expect = headers.get("Expect")
        if expect is not None and self.version == "1.1":
            if expect.lower() != "100-continue":
                self.refusal = _expectation_failed
                self._halt("refuse", "")  # 417: the one expectation HTTP defines is 100-continue
            self.expect_continue = True
            self._continue()

    def on_body(self, body: bytes) -> None:
        self.expect_continue = False  # it sent its body without waiting
        self.body += body
        if len(self.body) > self.front.policy.max_body_bytes:
            self.refusal = _too_large
            self._halt("refuse", "")

    def on_message_complete(self) -> None:
        incoming = self.incoming
        self.in_message = False
        self.fresh = False
        self.since_begin = None
        self.expect_continue = False
        if incoming is None:  # a request that was handed on or refused
            return
        incoming.body = bytes(self.body)
        self.body = bytearray()
        self._enqueue(_Queued(incoming, self.parser.should_keep_alive(), self.version, None))

    # ------------------------------------------------------------------ serving
    def _enqueue(self, queued: _Queued) -> None:
        self.queue.append(queued)
        if not self.in_message:
            self._cancel_timer()
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
        except Exception:  # a bug in the front: logged, and this connection given up
            log.exception("the front failed to answer %s", self.remote)
            self.queue.clear()
            self.serving = None
            self.abort()

    async def _answer_queue(self) -> None:
        front = self.front
        try:
            while self.queue and not self.closed:
                incoming, keep_alive, version, handler = self.queue.popleft()
                if handler is None:
                    handler = handle_q if incoming.endpoint == "/q" else handle_route
                response = await gateway_middleware(incoming, handler)  # type: ignore[arg-type]
                if front.closing or (self.halted == "close" and not self.queue):
                    keep_alive = False  # the last answer before the connection closes says so
                try:
                    data = encode(response, incoming.method == "HEAD", keep_alive, version)
                except ValueError as error:  # a header aiohttp would refuse too: a line break, a NUL
                    log.error("answer to %s %s not sent: %s", incoming.method, incoming.path, error)
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
        if self.halted is not None:
            self._after_halt()
        elif front.closing:
            self._close_after_answers()
        elif self.backlog is not None:
            backlog, self.backlog = self.backlog, None
            self._resume_reading()
            self._feed(backlog)
        else:
            self._resume_reading()
            self._continue()
            if not self.in_message:
                self._set_timer(IDLE_TIMEOUT_S)

    # ------------------------------------------------------------------ stopping
    def _halt(self, why: str, problem: str) -> None:
        self.halted, self.problem = why, problem
        if why != "aiohttp":
            self.since_begin = None
        raise _Halt

    def _for_aiohttp(self) -> None:
        """This request is one aiohttp serves: hand it the connection from here."""
        self._halt("aiohttp" if self.since_begin is not None else "close", "")

    def _malformed(self, problem: str) -> None:
        self.halted, self.problem, self.since_begin = "malformed", problem, None
        self._after_halt()

    def _after_halt(self) -> None:
        """Do what stopped the reading once the answers before it are out."""
        self._pause_reading()
        self._cancel_timer()
        self.backlog = None
        if self.halted == "refuse" and self.incoming is not None:
            incoming, self.incoming = self.incoming, None
            self._enqueue(_Queued(incoming, False, self.version, self.refusal))
            return
        if self.serving is not None or self.queue:
            return  # _answer_queue comes back here when it is done
        if self.halted == "aiohttp" and self.since_begin is not None:
            self._hand_over(b"".join(self.since_begin))
        elif self.halted == "malformed":
            self._refuse_malformed()
        else:
            self._close_after_answers()

    def _refuse_malformed(self) -> None:
        log_unparsed(self.front.app, 400, self.remote, self.problem)
        if self.transport is not None and not self.closed:
            self.transport.write(encode(json_response({"err": self.problem}, status=400), False, False, "1.1"))
            self._close_after_answers()

    def _close_after_answers(self) -> None:
        """Close once what was written has gone out. The client's unread bytes are read
        and dropped first (for up to ``LINGER_S``, at most ``LINGER_BYTES``): a socket
        closed with input unread is reset, and the reset can destroy the answers still
        on their way (RFC 9112 §9.6)."""
        transport = self.transport
        if transport is None or self.closed:
            return
        if not transport.can_write_eof():
            self.abort()
            return
        self.halted = self.halted or "close"
        self.lingering = LINGER_BYTES
        transport.write_eof()
        self._resume_reading()
        self._stop_timer()
        self.timer = self.timers.later(LINGER_S, self.abort)

    def _hand_over(self, data: bytes) -> None:
        transport = self.transport
        if transport is None or self.closed:
            return
        self._stop_timer()
        self.front.connections.discard(self)
        self.closed = True  # for this protocol: the connection is aiohttp's now
        protocol = self.front.aiohttp_protocol()
        transport.set_protocol(protocol)
        protocol.connection_made(transport)
        if self.writable is not None and not self.writable.done():
            protocol.pause_writing()  # the client has not read the last answers yet: aiohttp waits too
        if not self.reading:
            transport.resume_reading()
        if data:
            protocol.data_received(data)

    def close_if_idle(self) -> None:
        if self.serving is None and not self.in_message:
            self._close_after_answers()

    def abort(self) -> None:
        self._stop_timer()
        if self.transport is not None and not self.closed:
            self.transport.close()

    def _timed_out(self) -> None:
        if self.serving is not None or self.queue:  # answers are under way: they go out, then the close
            self.halted, self.since_begin = "close", None
            self._pause_reading()
            return
        if self.in_message and self.transport is not None:
            log_unparsed(self.front.app, 408, self.remote, "the request did not arrive in time")
            body = {"err": f"the request did not arrive within {READ_TIMEOUT_S:g} s"}
            self.transport.write(encode(json_response(body, status=408), False, False, "1.1"))
            self._close_after_answers()
            return
        self.abort()

    # ------------------------------------------------------------------ flow
    def _set_timer(self, seconds: float) -> None:
        """Time out in ``seconds``. One timer per connection, moved lazily: a later
        deadline is only noted (the timer, firing early, waits for the rest); an earlier
        one moves the timer."""
        deadline = self.deadline = self.loop.time() + seconds
        timer = self.timer
        if timer is not None and timer.when > deadline:
            timer.cancel()
            timer = None
        if timer is None:
            self.timer = self.timers.at(deadline, self._check_deadline)

    def _check_deadline(self) -> None:
        self.timer = None
        if self.deadline is None:
            return
        if self.loop.time() < self.deadline - EARLY_S:  # the board fires up to EARLY_S early
            self.timer = self.timers.at(self.deadline, self._check_deadline)
            return
        self.deadline = None
        self._timed_out()

    def _cancel_timer(self) -> None:
        self.deadline = None  # the timer, if one runs, finds no deadline and stops

    def _stop_timer(self) -> None:
        self.deadline = None
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _pause_reading(self) -> None:
        if self.reading and self.transport is not None and not self.closed:
            self.reading = False
            self.transport.pause_reading()

    def _resume_reading(self) -> None:
        if not self.reading and self.transport is not None and not self.closed:
            self.reading = True
            self.transport.resume_reading()


# RFC 9110's single-valued request headers, which aiohttp refuses twice (its SINGLETON_HEADERS)
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


def _repeated_singleton(headers: CIMultiDictProxy[str]) -> str | None:
    """The first single-valued header given more than once, if any."""
    return next((name for name in SINGLETONS if len(headers.getall(name, ())) > 1), None)


async def _too_large(request: Any) -> web.StreamResponse:
    """The handler of a request whose body is over ``gateway.maxBodyBytes``: the
    middleware answers it as it answers aiohttp's own 413."""
    raise web.HTTPRequestEntityTooLarge(max_size=request.app[POLICY].max_body_bytes, actual_size=0)


async def _expectation_failed(request: Any) -> web.StreamResponse:
    """The handler of a request that expects what the gateway does not know (RFC 9110 §10.1.1)."""
    expect = request.headers.get("Expect", "")[:60]
    raise web.HTTPExpectationFailed(text=f"Expect: {expect} is not understood; the gateway knows 100-continue")


def _problem(error: Exception) -> str:
    text = str(error).strip().rstrip(".")
    return f"the request is malformed: {text[:200]}" if text else "the request is malformed"


# ------------------------------------------------------------------ answers

_date: list[Any] = [0, b""]  # the second last formatted, and its Date header line


def _date_line() -> bytes:
    now = int(time.time())
    if now != _date[0]:
        _date[0], _date[1] = now, b"Date: " + formatdate(now, usegmt=True).encode() + b"\r\n"
    return _date[1]


# what aiohttp lets through: a name that is an RFC 9110 token, a value without control characters but tab
_NAME_OK = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+\Z")
_VALUE_OK = re.compile(r"[^\x00-\x08\x0a-\x1f\x7f]*\Z")
_SET_HERE = frozenset(("content-length", "connection", "date", "transfer-encoding"))


_STATUS_LINES: dict[tuple[str, int, str], bytes] = {}
# what ``encode`` does with a header of each name seen: sent, skipped (set here) or refused
_SEND, _SKIP, _BAD = "send", "skip", "bad"
_NAMES: dict[str, str] = {}


def _name_verdict(name: str) -> str:
    """Worked out once per header name (the same few names, answer after answer)."""
    if name.lower() in _SET_HERE:
        verdict = _SKIP
    elif (name.isascii() and name.replace("-", "").isalnum()) or _NAME_OK.match(name):
        verdict = _SEND
    else:
        verdict = _BAD
    if len(_NAMES) < 1024:  # names are the app's and its handlers': few, but kept bounded
        _NAMES[name] = verdict
    return verdict


def encode(response: web.StreamResponse, head_only: bool, keep_alive: bool, version: str) -> bytes:
    """``response`` as the bytes of one HTTP/1.x answer. A header name or value with a
    line break is refused (``ValueError``), as aiohttp refuses it."""
    body = getattr(response, "body", None)
    if not isinstance(body, (bytes, bytearray)):
        if body is not None:
            raise ValueError(f"the front sends bodies of bytes, not {type(body).__name__}")
        body = b""
    key = (version, response.status, response.reason)
    status_line = _STATUS_LINES.get(key)
    if status_line is None:
        shown = version if version in ("1.0", "1.1") else "1.1"
        status_line = f"HTTP/{shown} {response.status} {response.reason}\r\n".encode("latin-1", "replace")
        if len(_STATUS_LINES) < 1024:
            _STATUS_LINES[key] = status_line
    parts = []
    for name, value in response.headers.items():
        verdict = _NAMES.get(name)
        if verdict is None:
            verdict = _name_verdict(name)
        if verdict is _SKIP:
            continue
        if verdict is _BAD or not (value.isprintable() or _VALUE_OK.match(value)):
            raise ValueError(f"a control character in the header {name[:40]!r}, or a name that is not a token")
        parts.append(f"{name}: {value}\r\n")
    parts.append(f"Content-Length: {len(body)}\r\n")
    if not keep_alive:
        parts.append("Connection: close\r\n")
    elif version == "1.0":
        parts.append("Connection: keep-alive\r\n")
    head = status_line + "".join(parts).encode("utf-8", "surrogateescape") + _date_line() + b"\r\n"
    return head if head_only else head + body
