"""A request as bytes on the wire: the request line, ``Host``, the caller's headers,
``Content-Length``; and the origin a URL's connection belongs to.

Header names and values were checked where they were made (``tables/request.py``
refuses control characters a caller or a template put in a header); the count of
line breaks in the finished head is checked here once more, at the cost of one
``str.count``, because a line break that got through would be a request smuggled in.
"""

from __future__ import annotations

import base64
import re
from functools import lru_cache
from urllib.parse import quote, unquote, urlsplit

from ..fields import is_field_name
from .proxy import ProxyServer

_DEFAULT_PORTS = {"http": 80, "https": 443}
# what may stand in a request target as is (RFC 3986's unreserved, the sub-delimiters, and
# '%' of escapes already made); anything else (spaces, non-ASCII, quotes, brackets) is
# percent-encoded, and a '%' that starts no escape becomes '%25', as yarl sent them
_TARGET_SAFE = "!$%&'()*+,/:;=?@~-._"
_NEEDS_QUOTING = re.compile(r"[^A-Za-z0-9!$%&'()*+,/:;=?@~\-._]|%(?![0-9A-Fa-f]{2})")
_LONE_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
_SENT_BY_US = frozenset({"host", "content-length", "transfer-encoding"})
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


class BadUrl(ValueError):
    """A URL no request can be made for (no host, an unknown scheme, a bad port)."""


class Origin:
    """Where a URL's connection goes: ``key`` for the pool, the ``Host`` header, the
    request target's prefix when the request goes to a proxy in absolute form."""

    __slots__ = ("authorization", "host", "host_header", "port", "scheme")

    def __init__(self, scheme: str, host: str, port: int, host_header: str, authorization: str | None) -> None:
        self.scheme = scheme
        self.host = host
        self.port = port
        self.host_header = host_header
        self.authorization = authorization  # Basic, from the URL's user:password@ (as aiohttp sent it)


@lru_cache(maxsize=1024)
def _origin(scheme: str, netloc: str) -> Origin:
    parts = urlsplit(f"{scheme}://{netloc}")
    try:
        host = parts.hostname
        port = parts.port
    except ValueError as e:
        raise BadUrl(str(e)) from None
    if not host:
        raise BadUrl("no host")
    try:
        ascii_host = host if host.isascii() else _idna(host)
    except UnicodeError as e:
        raise BadUrl(f"host {host!r} cannot be encoded: {e}") from None
    default = _DEFAULT_PORTS[scheme]
    shown = f"[{ascii_host}]" if ":" in ascii_host else ascii_host
    header = shown if port in (None, default) else f"{shown}:{port}"
    authorization = None
    if parts.username is not None or parts.password is not None:
        pair = f"{unquote(parts.username or '')}:{unquote(parts.password or '')}".encode()
        authorization = "Basic " + base64.b64encode(pair).decode("ascii")
    return Origin(scheme, ascii_host, port or default, header, authorization)


def _idna(host: str) -> str:
    """A host name's ASCII form by IDNA 2008 with UTS 46 mapping, as browsers and yarl do
    (Python's own codec is IDNA 2003, which turns ``straße.de`` into another domain)."""
    try:
        import idna  # installed with aiohttp (through yarl)
    except ImportError:  # pragma: no cover
        return host.encode("idna").decode("ascii")
    try:
        return idna.encode(host, uts46=True).decode("ascii")
    except idna.IDNAError as e:
        raise UnicodeError(str(e)) from None


def split_url(url: str) -> tuple[Origin, str]:
    """(origin, request target) of an absolute http(s) URL; the fragment is dropped."""
    scheme, sep, rest = url.partition("://")
    scheme = scheme.lower()
    if not sep or scheme not in _DEFAULT_PORTS:
        raise BadUrl(f"not an http(s) URL: {url[:200]!r}")
    cut = len(rest)
    for mark in "/?#":
        at = rest.find(mark)
        if at != -1 and at < cut:
            cut = at
    netloc, target = rest[:cut], rest[cut:]
    hash_at = target.find("#")
    if hash_at != -1:
        target = target[:hash_at]
    if not target.startswith("/"):
        target = "/" + target
    if _NEEDS_QUOTING.search(target):
        target = quote(_LONE_PERCENT.sub("%25", target), safe=_TARGET_SAFE)
    return _origin(scheme, netloc), target


def serialise(
    method: str,
    origin: Origin,
    target: str,
    headers: dict[str, str],
    body: bytes | None,
    proxy: ProxyServer | None = None,
) -> bytes:
    """The request's bytes. Through a proxy, plain HTTP is sent in absolute form with the
    proxy's credentials (``Proxy-Authorization``, which the proxy strips); HTTPS goes
    inside a CONNECT tunnel and looks like a direct request."""
    if proxy is not None and origin.scheme == "http":
        target = f"http://{origin.host_header}{target}"
    host = headers.get("host") or origin.host_header
    lines = [f"{method} {target} HTTP/1.1\r\nHost: {host}\r\n"]
    if origin.authorization is not None and "authorization" not in headers:
        lines.append(f"authorization: {origin.authorization}\r\n")
    for name, value in headers.items():
        if name not in _SENT_BY_US:
            if not is_field_name(name):  # "Host: x" as a name would be a second Host on the wire
                raise BadUrl(f"the header name {name[:60]!r} is not an HTTP token")
            lines.append(f"{name}: {value}\r\n")
    breaks = len(lines) + 1
    if proxy is not None and origin.scheme == "http" and proxy.authorization is not None:
        lines.append(f"proxy-authorization: {proxy.authorization}\r\n")
        breaks += 1
    if body is not None:
        lines.append(f"content-length: {len(body)}\r\n\r\n")
        breaks += 2
    elif method in _BODY_METHODS:
        lines.append("content-length: 0\r\n\r\n")
        breaks += 2
    else:
        lines.append("\r\n")
        breaks += 1
    text = "".join(lines)
    if text.count("\n") != breaks or text.count("\r") != breaks:
        raise BadUrl("a line break in the request's target or headers")
    try:
        head = text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise BadUrl(f"the request's head cannot be encoded: {e.reason}") from None
    return head + body if body else head
