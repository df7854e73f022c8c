"""What the cache keeps of an answer: the upstream status, the headers reading it
needs and the (content-decoded) body; and the copies every reader gets."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from .keys import CREDENTIAL_NAME

if TYPE_CHECKING:
    from ..http.client import HttpResponse

# what an entry costs beyond its bytes in this process's memory (objects, dict slots)
ENTRY_OVERHEAD = 512
HEADER_OVERHEAD = 192

# never stored: the connection's, the encoding already undone, and what belongs to one client
_DROPPED = frozenset(
    {
        "connection",
        "keep-alive",
        "transfer-encoding",
        "content-encoding",
        "content-length",
        "set-cookie",
        "set-cookie2",
        "www-authenticate",
        "proxy-authenticate",
        "date",
        "age",
    }
)


@dataclass(frozen=True, slots=True)
class Entry:
    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes
    url: str
    stored_at: float  # wall-clock seconds
    fresh_until: float  # wall-clock seconds; after it the entry is stale

    @classmethod
    def of(cls, response: HttpResponse, now: float, ttl: float, *, mask: Callable[[str], str] | None = None) -> Entry:
        """What is kept of ``response``: never a header named like a credential, and
        its URL with the config's secrets (``mask``) and credential-named query
        parameters masked (a backend is no place for an ``api_key``)."""
        headers = tuple(
            (k, v) for k, v in response.headers.items() if k.lower() not in _DROPPED and not _credential_header(k)
        )
        return cls(response.status, headers, response.body, safe_url(response.url, mask), now, now + ttl)

    @property
    def size(self) -> int:
        """Bytes it holds, with what Python spends on it besides."""
        held = len(self.body) + sum(len(k) + len(v) + HEADER_OVERHEAD for k, v in self.headers)
        return held + len(self.url) + ENTRY_OVERHEAD

    def response(self) -> HttpResponse:
        """A fresh response for one reader (its own headers dict to change)."""
        from ..http.client import HttpResponse  # the HTTP client is imported by the first call

        return HttpResponse(self.status, dict(self.headers), self.body, self.url, wire_bytes=0)

    def dumps(self) -> bytes:
        head = json.dumps(
            {"s": self.status, "h": self.headers, "u": self.url, "t": self.stored_at, "f": self.fresh_until},
            separators=(",", ":"),
        )
        return head.encode() + b"\n" + self.body

    @classmethod
    def loads(cls, data: bytes) -> Entry:
        head, _, body = data.partition(b"\n")
        meta = json.loads(head)
        return cls(
            int(meta["s"]),
            tuple((str(k), str(v)) for k, v in meta["h"]),
            body,
            str(meta["u"]),
            float(meta["t"]),
            float(meta["f"]),
        )


def _credential_header(name: str) -> bool:
    return bool(CREDENTIAL_NAME.search(name)) or "authentication" in name.lower()


def safe_url(url: str, mask: Callable[[str], str] | None = None) -> str:
    """``url`` with the config's secrets masked and the values of credential-named
    query parameters replaced by ``****``."""
    if mask is not None:
        url = mask(url)
    try:
        parts = urlsplit(url)
    except ValueError:  # not a URL one can split: keep none of it
        return ""
    if not parts.query:
        return url
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    if not any(CREDENTIAL_NAME.search(k) for k, _ in pairs):
        return url
    query = urlencode([(k, "****" if CREDENTIAL_NAME.search(k) else v) for k, v in pairs], safe="*")
    return urlunsplit(parts._replace(query=query))


def copy_response(response: HttpResponse) -> HttpResponse:
    """Each waiter on a shared call gets its own response object, all of them one
    ``shared`` memo: the body is decoded once for them all."""
    if response.shared is None:
        response.shared = {}
    return type(response)(
        response.status,
        dict(response.headers),
        response.body,
        response.url,
        wire_bytes=response.wire_bytes,
        started=response.started,
        ended=response.ended,
        attempts=response.attempts,
        redirects=list(response.redirects),
        proxy=response.proxy,
        shared=response.shared,
    )
