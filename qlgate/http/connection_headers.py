"""Headers that belong to the connection, not to the request a table describes:
the gateway sets them, a caller's inline table may not (``qlgate.trust`` refuses
them at compile time, ``tables/request.py`` at run time for names built from
variables). Kept with the HTTP layer, which both of those sit above."""

from __future__ import annotations

# headers that steer the connection or re-route the request rather than describe it: a
# caller setting Host could reach another virtual host behind an allowed address, and the
# override headers turn a GET into a DELETE at servers that honour them
_CONNECTION_HEADERS = frozenset(
    {
        "host",
        "connection",
        "keep-alive",
        "transfer-encoding",
        "content-length",
        "te",
        "trailer",
        "upgrade",
        "expect",
        "forwarded",
        "x-real-ip",
        "x-host",
        "x-original-url",
        "x-rewrite-url",
        "x-original-host",
        "x-http-method",
        "x-http-method-override",
        "x-method-override",
    }
)


def connection_header(name: str) -> bool:
    """A header a caller's inline table may not set (checked at compile time, and at run
    time for names built from variables)."""
    name = name.strip().lower()
    return name in _CONNECTION_HEADERS or name.startswith(("proxy-", "x-forwarded-"))
