"""One client connection of the gateway: HTTP/1.1 read with httptools (llhttp,
Node.js's parser) and answered in order, apart from the request cycle (the
pipeline and its handlers, which see a whole ``Request`` and give back a
``Response``). What a connection does with bytes is here; what it owes its
peers (deadlines, the bytes of heads read at once, how many connections) is
``limits.py``.

What a connection holds to:
- a request line (the URL) up to ``gateway.maxScriptLength`` of script, header
  fields up to 8,190 bytes each, 64 KiB and 128 in all (``reader.py`` reads them),
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
import logging
from collections import deque
from collections.abc import AsyncGenerator
from typing import TYPE_CHECKING, NamedTuple

import httptools

from . import accesslog
from .limits import IDLE_TIMEOUT_S, LINGER_BYTES, LINGER_S, READ_TIMEOUT_S, ConnectionTimer
from .pipeline import answer
from .reader import RequestReader, Stop
from .request import Request
from .response import BadHeader, Response, encode, json_response, problem_response

if TYPE_CHECKING:
    from .server import Server

log = logging.getLogger("qlgate.server")

MAX_QUEUED = 16  # pipelined requests read ahead of their answers; the rest waits unparsed
FEED_BYTES = 4096  # parsed at a time: a full queue stops the parsing within this many bytes


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
        self.expect_continue = False  # a 100 Continue is owed once the answers before it are out
        self.reader = RequestReader(self)

    # ------------------------------------------------------------------ asyncio
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # a stream's transport (uvloop's is not a subclass)
        peer = transport.get_extra_info("peername")
        self.remote = peer[0] if isinstance(peer, (tuple, list)) and peer else None
        if not self.server.admit(self):
            return
        self.timer.set(IDLE_TIMEOUT_S)

    def connection_lost(self, exc: BaseException | None) -> None:
        reader = self.reader
        if reader.in_message and not self.closed and not self.stopped:
            method = reader.request.method if reader.request is not None else None
            accesslog.write_unanswered(
                self.gateway, 0, self.remote, "the client closed the connection before its request arrived", method
            )
        self.closed = True
        self.timer.stop()
        reader.forget()
        self.backlog = None
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
        try:
            self.reader.feed(piece)
        except Stop:
            pass
        except httptools.HttpParserCallbackError:  # a bug in a callback, not the client's doing
            log.exception("failed to read a request from %s", self.remote)
            self.abort()
            return False
        if self.stopped:
            self._after_stop()
            return False
        return True

    # ------------------------------------------------------------------ what the reader tells
    def request_begun(self) -> None:
        self.expect_continue = False
        self.timer.set(READ_TIMEOUT_S)

    def request_read(self, request: Request, keep_alive: bool, version: str) -> None:
        self._enqueue(_Queued(request, keep_alive, version, None))

    def continue_owed(self) -> None:
        self.expect_continue = True
        self._continue()

    def stop(self, last: Response | None) -> None:
        """Read nothing more; answer what was read, then ``last`` (if any), then close."""
        if not self.stopped:
            self.stopped, self.last = True, last

    def refuse(self, request: Request, response: Response, version: str) -> None:
        """Answer ``request`` from its head with ``response`` (in its turn), and read nothing more."""
        self.queue.append(_Queued(request, False, version, response))
        self.stop(None)

    # ------------------------------------------------------------------ serving
    def _enqueue(self, queued: _Queued) -> None:
        self.queue.append(queued)
        if not self.reader.in_message:
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
                if response.stream is not None and version != "1.1":
                    keep_alive = False  # HTTP/1.0 has no chunks: the close ends a streamed body
                try:
                    data = encode(response, request.method == "HEAD", keep_alive, version)
                except BadHeader as error:
                    log.error("answer to %s %s not sent: %s", request.method, request.path, error)
                    data = encode(json_response({"err": "internal error"}, status=500), False, False, version)
                    keep_alive = False
                if self.closed or self.transport is None:
                    return
                self.transport.write(data)
                if response.stream is not None and not await self._send_stream(
                    response.stream, request.method != "HEAD", version == "1.1"
                ):
                    return
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
            if not self.reader.in_message:
                self.timer.set(IDLE_TIMEOUT_S)

    async def _send_stream(self, stream: AsyncGenerator[bytes, None], send: bool, chunked: bool) -> bool:
        """Send a streamed body (``ndjson.py``) a chunk at a time, each once the client has
        read enough of the one before (``writable``): what the gateway holds is one chunk,
        not the answer. False when the connection went away (or the stream failed, which
        cuts the answer short: a client sees no last chunk, and knows)."""
        try:
            if send:
                async for chunk in stream:
                    if self.closed or self.transport is None:
                        return False
                    if chunk:
                        self.transport.writelines((b"%x\r\n" % len(chunk), chunk, b"\r\n") if chunked else (chunk,))
                    if self.writable is not None and not self.writable.done():
                        await self.writable
            if self.closed or self.transport is None:
                return False
            if send and chunked:
                self.transport.write(b"0\r\n\r\n")
            return True
        except Exception:  # a bug in a stream: logged, and the answer cut short by the close
            log.exception("a streamed answer to %s failed", self.remote)
            self.abort()
            return False
        finally:
            await stream.aclose()

    # ------------------------------------------------------------------ stopping
    def _after_stop(self) -> None:
        """Once the answers before it are out: the last answer, then close."""
        self._pause_reading()
        self.timer.cancel()
        self.backlog = None
        self.reader.body = bytearray()
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
        if self.serving is None and not self.reader.in_message:
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
        reader = self.reader
        if reader.in_message and self.transport is not None and not self.stopped:
            method = reader.request.method if reader.request is not None else None
            problem = f"the request did not arrive within {READ_TIMEOUT_S:g} s"
            accesslog.write_unanswered(self.gateway, 408, self.remote, problem, method)
            self.stopped = True
            reader.forget()
            self.transport.write(encode(problem_response(problem, status=408), False, False, "1.1"))
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
