"""What the cache keeps of an answer: the upstream status, the headers reading it
needs and the (content-decoded) body; and the copies every reader gets."""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..http.client import HttpResponse

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
    def of(cls, response: HttpResponse, now: float, ttl: float) -> Entry:
        headers = tuple((k, v) for k, v in response.headers.items() if k not in _DROPPED)
        return cls(response.status, headers, response.body, response.url, now, now + ttl)

    @property
    def size(self) -> int:
        return len(self.body) + sum(len(k) + len(v) for k, v in self.headers) + len(self.url) + 64

    def response(self) -> HttpResponse:
        """A fresh response for one reader (its own headers dict to change)."""
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


def copy_response(response: HttpResponse) -> HttpResponse:
    """Each waiter on a shared call gets its own response object."""
    return HttpResponse(
        response.status,
        dict(response.headers),
        response.body,
        response.url,
        wire_bytes=response.wire_bytes,
        started=response.started,
        ended=response.ended,
        attempts=response.attempts,
        redirects=list(response.redirects),
    )
