"""Requests out of one connection's bytes: httptools (llhttp, Node.js's parser)
called back field by field, and what a request may be (the request line,
headers, body and head limits of ``connection.py``'s docstring) checked as
it arrives. The reader knows nothing of answering: it tells its connection
(``Connection``) when a request begins, when one was read whole, when one is
refused from its head, and when nothing more is to be read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

import httptools

from . import accesslog
from .request import MultiMap, Request
from .response import Response, problem_response

if TYPE_CHECKING:
    from .connection import Connection

MAX_FIELD_BYTES = 8190  # a header's name and value
MAX_HEADERS = 128
MAX_HEADER_BYTES = 64 * 1024  # all of a head's header fields together

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


class Stop(Exception):
    """Raised in a parser callback: nothing more of this connection is read."""


class RequestReader:
    """One connection's parser and the message it is reading."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        server = connection.server
        self.gateway = server.gateway
        self.policy = server.gateway.policy
        self.heads = server.heads  # the process's budget of head bytes
        self.max_head_bytes = server.max_head_bytes
        self.parser = httptools.HttpRequestParser(self)
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
        self.held = 0  # bytes of the head under way counted against the head budget

    def feed(self, piece: bytes) -> None:
        """Parse one slice. The connection hears of what it held (``request_read``,
        ``refuse``, ``stop``); ``Stop`` is raised once nothing more is to be read."""
        self.piece_size = len(piece)
        if self.in_message:
            self.message_bytes += len(piece)
            # what httptools gathers in memory before a callback sees it (a header value
            # that never ends, a trailer, chunk framing) is bounded by the bytes that came
            if self.in_head and not self._hold(len(piece)):
                self._stop(self.malformed(BUSY_READING, status=503))
            if self.message_bytes - len(self.body) > self.max_head_bytes + 8 * len(self.body):
                self._stop(self.malformed(TOO_LONG))
        try:
            self.parser.feed_data(piece)
        except httptools.HttpParserCallbackError as error:
            if isinstance(error.__context__, Stop):
                raise Stop from None
            raise  # a bug in a callback, not the client's doing
        except httptools.HttpParserUpgrade:
            self._stop(None)  # not switched: answered as a plain request (queued already), then closed
        except httptools.HttpParserError as error:
            self._stop(self.malformed(_problem(error)))

    def release_head(self) -> None:
        """Give back what the head under way holds of the budget (read, refused or gone)."""
        if self.held:
            self.heads.give_back(self.held)
            self.held = 0

    def forget(self) -> None:
        """The connection closed: let go of whatever was being read."""
        self.release_head()
        self.url, self.body, self.headers = bytearray(), bytearray(), []
        self.in_message = self.in_head = False

    def malformed(self, problem: str, status: int = 400) -> Response:
        """The answer to a request that cannot be read (and its access-log line)."""
        accesslog.write_unanswered(self.gateway, status, self.connection.remote, problem)
        response = problem_response(problem, status)
        if status == 503:
            response.headers["Retry-After"] = "1"
        return response

    # ------------------------------------------------------------------ httptools
    def on_message_begin(self) -> None:
        self.in_message = self.in_head = True
        self.message_bytes = self.piece_size
        if not self._hold(self.piece_size):
            self._stop(self.malformed(BUSY_READING, status=503))
        self.url, self.header_bytes, self.headers = bytearray(), 0, []
        self.body = bytearray()
        self.request = None
        self.connection.request_begun()

    def on_url(self, url: bytes) -> None:
        self.url += url
        if len(self.url) > self.policy.max_request_line:
            self._stop(self.malformed(TOO_LONG))

    def on_header(self, name: bytes, value: bytes) -> None:
        size = len(name) + len(value)
        self.header_bytes += size
        if size > MAX_FIELD_BYTES or self.header_bytes > MAX_HEADER_BYTES:
            self._stop(self.malformed(TOO_LONG))
        if len(self.headers) >= MAX_HEADERS:
            self._stop(self.malformed("the request is malformed: it has too many headers"))
        self.headers.append((name.decode("utf-8", "surrogateescape"), value.decode("utf-8", "surrogateescape")))

    def on_headers_complete(self) -> None:
        self.in_head = False
        parser = self.parser
        raw_target = self.url.decode("utf-8", "surrogateescape")
        self.url = bytearray()
        self.release_head()
        method = parser.get_method().decode("ascii", "replace")
        self.version = parser.get_http_version()
        target = _origin_form(raw_target)
        if target is None:
            self._stop(self.malformed("the request is malformed: its target is not a path (RFC 9112 §3.2)"))
        headers = MultiMap(self.headers, fold=True)
        self.headers = []
        if headers.distinct() != len(headers):  # a name given twice
            twice = next((name for name in SINGLETONS if len(headers.getall(name)) > 1), None)
            if twice is not None:
                self._stop(self.malformed(f"the request is malformed: the header {twice} is given more than once"))
        if self.version == "1.1" and "Host" not in headers:
            self._stop(self.malformed("the request is malformed: HTTP/1.1 needs a Host header (RFC 9112 §3.2)"))
        chunked = "chunked" in headers.get("Transfer-Encoding", "").lower()
        length = headers.get("Content-Length")
        declared = int(length) if length is not None and length.isdigit() else 0
        request = Request(self.gateway, method, target, headers, self.connection.remote, b"", chunked or declared > 0)
        self.request = request
        if declared > self.policy.max_body_bytes:
            self._refuse(request, _too_large(self.policy.max_body_bytes))  # the body is not read
        expect = headers.get("Expect")
        if expect is not None and self.version == "1.1":
            if expect.lower() != "100-continue":
                problem = f"Expect: {expect[:60]} is not understood; the gateway knows 100-continue"
                self._refuse(request, problem_response(problem, status=417))
            self.connection.continue_owed()

    def on_body(self, body: bytes) -> None:
        self.connection.expect_continue = False  # it sent its body without waiting
        self.body += body
        if len(self.body) > self.policy.max_body_bytes and self.request is not None:
            self._refuse(self.request, _too_large(self.policy.max_body_bytes))

    def on_message_complete(self) -> None:
        request = self.request
        self.in_message = False
        self.request = None
        self.connection.expect_continue = False
        if request is None:
            return
        request.body = bytes(self.body)
        self.body = bytearray()
        self.connection.request_read(request, self.parser.should_keep_alive(), self.version)

    # ------------------------------------------------------------------ stopping
    def _hold(self, size: int) -> bool:
        """Count ``size`` more bytes of a head against the budget; False if it has no room."""
        if not self.heads.take(size):
            return False
        self.held += size
        return True

    def _stop(self, last: Response | None) -> NoReturn:
        """Read nothing more: the connection answers what was read, then ``last``, then closes."""
        self.in_message = self.in_head = False
        self.release_head()
        self.connection.stop(last)
        raise Stop

    def _refuse(self, request: Request, response: Response) -> NoReturn:
        """Answer ``request`` from its head with ``response`` (in its turn), and read nothing more."""
        self.in_message = self.in_head = False
        self.release_head()
        self.connection.refuse(request, response, self.version)
        raise Stop


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
    response = problem_response(f"request body is over the {limit}-byte limit (gateway.maxBodyBytes)", status=413)
    response.close = True
    return response


def _problem(error: Exception) -> str:
    text = str(error).strip().rstrip(".")
    return f"the request is malformed: {text[:200]}" if text else "the request is malformed"
