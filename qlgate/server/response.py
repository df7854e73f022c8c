"""An answer of the gateway's: its status, headers and body, the one JSON shape
every answer (and every error) takes, and the bytes of it on the wire.

Bodies are bytes, whole: most of the gateway's answers are JSON documents it
has encoded already (a script's result, an error, a describe page), and one
``write`` per answer is the cheapest way out. The one exception is a result
asked for as NDJSON (``ndjson.py``): its ``stream`` yields the body a chunk at
a time, sent chunked as the client reads it (``Connection``).
"""

from __future__ import annotations

import re
import time
from collections.abc import AsyncGenerator, Iterator
from email.utils import formatdate
from http import HTTPStatus
from typing import Any

from .._version import __version__
from ..config import Secrets
from ..values import MISSING, dump_json_bytes

SERVER = f"qlgate/{__version__}"

# the ``type`` of an error answer that no QlError named (a 404 for a path, a 405, a bad body)
ERROR_TYPES = {
    400: "BadRequest",
    401: "Unauthorized",
    403: "Forbidden",
    404: "NotFound",
    405: "MethodNotAllowed",
    406: "NotAcceptable",
    408: "RequestTimeout",
    409: "Conflict",
    413: "PayloadTooLarge",
    414: "URITooLong",
    415: "UnsupportedMediaType",
    417: "ExpectationFailed",
    429: "TooManyRequests",
    431: "HeadersTooLarge",
    500: "InternalError",
    502: "BadGateway",
    503: "Unavailable",
    504: "GatewayTimeout",
}


class Headers:
    """An answer's headers: one value per name, names matched without case, sent
    in the order they were set, under the spelling first given."""

    __slots__ = ("_fields",)

    def __init__(self, initial: dict[str, str] | None = None) -> None:
        self._fields: dict[str, tuple[str, str]] = {}
        if initial:
            for name, value in initial.items():
                self[name] = value

    def __setitem__(self, name: str, value: str) -> None:
        key = name.lower()
        known = self._fields.get(key)
        self._fields[key] = (known[0] if known else name, value)

    def __getitem__(self, name: str) -> str:
        return self._fields[name.lower()][1]

    def get(self, name: str, default: Any = None) -> Any:
        found = self._fields.get(name.lower())
        return found[1] if found else default

    def setdefault(self, name: str, value: str) -> str:
        found = self._fields.get(name.lower())
        if found is not None:
            return found[1]
        self[name] = value
        return value

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.lower() in self._fields

    def items(self) -> Iterator[tuple[str, str]]:
        return iter(self._fields.values())

    def __len__(self) -> int:
        return len(self._fields)


class Response:
    """One answer. ``content_type`` is also its ``Content-Type`` header."""

    __slots__ = ("body", "close", "headers", "status", "stream")

    def __init__(
        self,
        body: bytes = b"",
        status: int = 200,
        content_type: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.status = status
        self.body = body
        self.headers = Headers(headers)
        self.close = False  # the connection closes after it (a malformed request, a body not read)
        # the body a chunk at a time, instead of ``body`` (an NDJSON result, ``ndjson.py``)
        self.stream: AsyncGenerator[bytes, None] | None = None
        if content_type is not None:
            self.headers["Content-Type"] = content_type

    @property
    def content_type(self) -> str:
        return (self.headers.get("Content-Type") or "application/octet-stream").partition(";")[0].strip().lower()

    @content_type.setter
    def content_type(self, value: str) -> None:
        self.headers["Content-Type"] = value

    @property
    def reason(self) -> str:
        try:
            return HTTPStatus(self.status).phrase
        except ValueError:
            return "Unknown"


def error_shape(value: dict[str, Any], status: int) -> dict[str, Any]:
    """An error answer in the one shape: ``err``, ``type`` and ``status`` first, always,
    then whatever else it says (``missing``, ``line``…)."""
    rest = {k: v for k, v in value.items() if k not in ("err", "type", "status")}
    kind = value.get("type") or ERROR_TYPES.get(status, "HttpError")
    return {"err": value["err"], "type": kind, "status": value.get("status", status), **rest}


def json_response(
    value: Any, status: int = 200, headers: dict[str, str] | None = None, secrets: Secrets | None = None
) -> Response:
    """``secrets``: mask the config's secret values should an answer carry one (an
    upstream that echoes a credential must not hand it to the caller). An error's
    body gets the one error shape (``error_shape``), whoever wrote it."""
    if status >= 400 and isinstance(value, dict) and "err" in value:
        value = error_shape(value, status)
    body = dump_json_bytes(value if value is not MISSING else None)
    if secrets is not None:
        body = secrets.mask_bytes(body)
    response = Response(body, status, "application/json; charset=utf-8", headers)
    response.headers["Server"] = SERVER
    response.headers["X-Powered-By"] = SERVER
    return response


def problem_response(message: str, status: int, headers: dict[str, str] | None = None) -> Response:
    """``{"err": message}`` in the one shape, for what the gateway itself refuses."""
    return json_response({"err": message}, status=status, headers=headers)


# ------------------------------------------------------------------ on the wire

_date: list[Any] = [0, b""]  # the second last formatted, and its Date header line


def _date_line() -> bytes:
    now = int(time.time())
    if now != _date[0]:
        _date[0], _date[1] = now, b"Date: " + formatdate(now, usegmt=True).encode() + b"\r\n"
    return _date[1]


# RFC 9110 §5.1 and §5.5: a field name is a token; a value has no control character but tab
TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+\Z")
_VALUE_OK = re.compile(r"[^\x00-\x08\x0a-\x1f\x7f]*\Z")
_SET_HERE = frozenset(("content-length", "connection", "date", "transfer-encoding"))
_STATUS_LINES: dict[tuple[str, int], bytes] = {}
# what ``encode`` does with a header of each name seen: sent, skipped (set here) or refused
_SEND, _SKIP, _BAD = "send", "skip", "bad"
_NAMES: dict[str, str] = {}


class BadHeader(ValueError):
    """An answer's header that cannot be sent: a name that is not a token, a control character in a value."""


def _name_verdict(name: str) -> str:
    """Worked out once per header name (the same few names, answer after answer)."""
    if name.lower() in _SET_HERE:
        verdict = _SKIP
    elif (name.isascii() and name.replace("-", "").isalnum()) or TOKEN.match(name):
        verdict = _SEND
    else:
        verdict = _BAD
    if len(_NAMES) < 1024:  # names are the gateway's and its handlers': few, but kept bounded
        _NAMES[name] = verdict
    return verdict


def encode(response: Response, head_only: bool, keep_alive: bool, version: str) -> bytes:
    """``response`` as the bytes of one HTTP/1.x answer (``BadHeader`` for a header
    that would break the message: a line break in a value, a name not a token)."""
    body = response.body
    key = (version, response.status)
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
            raise BadHeader(f"a control character in the header {name[:40]!r}, or a name that is not a token")
        parts.append(f"{name}: {value}\r\n")
    if response.stream is None:
        parts.append(f"Content-Length: {len(body)}\r\n")
    elif version == "1.1":
        parts.append("Transfer-Encoding: chunked\r\n")  # HTTP/1.0: the close ends the body (keep_alive is false)
    if not keep_alive:
        parts.append("Connection: close\r\n")
    elif version == "1.0":
        parts.append("Connection: keep-alive\r\n")
    head = status_line + "".join(parts).encode("utf-8", "surrogateescape") + _date_line() + b"\r\n"
    return head if head_only else head + body
