"""A request read by the gateway's own front (``front.py``): what the gateway's
middleware and its script-running handlers (``/q`` and the routes) read of a
request, and nothing more.

It has the same names as aiohttp's ``web.Request`` for those parts (``method``,
``path``, ``query``, ``headers``, ``remote``, ``read()``…), so one middleware and
one pair of handlers serve both: the front for the hot paths, aiohttp for the
rest. Whatever is derived (the decoded path, the query) is computed when first
read: a ``/q`` answered from the compiled-script cache reads little.
"""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from typing import Any

from aiohttp import web
from multidict import CIMultiDictProxy, MultiDictProxy
from yarl import URL

# aiohttp's default when a request names no Content-Type
DEFAULT_CONTENT_TYPE = "application/octet-stream"


class Incoming(MutableMapping[Any, Any]):
    """One request; like aiohttp's, a mapping for what middleware and handlers note
    on it (its id, its caller, its run's calls)."""

    __slots__ = (
        "_content_type",
        "_notes",
        "_url",
        "app",
        "body",
        "body_exists",
        "endpoint",
        "headers",
        "method",
        "remote",
        "target",
    )

    def __init__(
        self,
        app: web.Application,
        method: str,
        target: str,
        headers: CIMultiDictProxy[str],
        remote: str | None,
        endpoint: str,
        body: bytes,
        body_exists: bool,
    ) -> None:
        self.app = app
        self.method = method
        self.target = target  # as sent: path and query, percent-encoded
        self.headers = headers
        self.remote = remote
        self.endpoint = endpoint  # the endpoint's path pattern, for the access policy: "/q" or "/{tail}"
        self.body = body
        self.body_exists = body_exists
        self._url: URL | None = None
        self._notes: dict[Any, Any] = {}
        self._content_type: tuple[str, dict[str, str]] | None = None

    # ------------------------------------------------------------------ the URL
    @property
    def rel_url(self) -> URL:
        if self._url is None:
            path, _, query = self.target.partition("#")[0].partition("?")
            self._url = URL.build(path=path, query_string=query, encoded=True)
        return self._url

    @property
    def path(self) -> str:
        return self.rel_url.path

    @property
    def query(self) -> MultiDictProxy[str]:
        return self.rel_url.query

    @property
    def host(self) -> str | None:
        return self.headers.get("Host")

    @property
    def scheme(self) -> str:
        return "http"

    # ------------------------------------------------------------------ the body
    async def read(self) -> bytes:
        return self.body

    @property
    def content_type(self) -> str:
        return self._parsed_content_type()[0]

    @property
    def charset(self) -> str | None:
        return self._parsed_content_type()[1].get("charset")

    def _parsed_content_type(self) -> tuple[str, dict[str, str]]:
        if self._content_type is None:
            self._content_type = parse_content_type(self.headers.get("Content-Type"))
        return self._content_type

    # ------------------------------------------------------------------ notes
    def __getitem__(self, key: Any) -> Any:
        return self._notes[key]

    def get(self, key: Any, default: Any = None) -> Any:
        # the mapping's own get: Mapping.get would raise and catch a KeyError for every
        # note a request does not carry (several per request)
        return self._notes.get(key, default)

    def __setitem__(self, key: Any, value: Any) -> None:
        self._notes[key] = value

    def __delitem__(self, key: Any) -> None:
        del self._notes[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._notes)

    def __len__(self) -> int:
        return len(self._notes)


def parse_content_type(value: str | None) -> tuple[str, dict[str, str]]:
    """``text/plain; charset=latin-1`` → ``("text/plain", {"charset": "latin-1"})``, as
    aiohttp reads it: the type in lower case, ``application/octet-stream`` when none."""
    if not value:
        return DEFAULT_CONTENT_TYPE, {}
    mime, *params = value.split(";")
    found: dict[str, str] = {}
    for param in params:
        name, sep, raw = param.partition("=")
        if sep:
            found[name.strip().lower()] = raw.strip().strip('"')
    return mime.strip().lower() or DEFAULT_CONTENT_TYPE, found
