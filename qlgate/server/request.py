"""A request as the gateway's connection read it (``connection.py``), and what
the pipeline and the handlers note on it while it is answered.

The gateway's own type, not a framework's: it holds what was read (method,
target, headers, body) and computes what is derived (the decoded path, the
query) when first asked, so a ``/q`` answered from the compiled-script cache
reads little. What the pipeline learns on the way (the request's id, the
caller, the run's calls) are attributes with names, not keys in a mapping.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, unquote

if TYPE_CHECKING:
    from ..diagnostics import Diagnostics
    from ..trace_context import TraceContext
    from .auth import Principal
    from .gateway import Gateway

# what a request that names no Content-Type is taken to carry
DEFAULT_CONTENT_TYPE = "application/octet-stream"


class MultiMap:
    """Read-only pairs with repeated names, looked up by name: a request's headers
    (names case-insensitive) or its query (case-sensitive). ``get`` gives the first
    value, ``getall`` every one, ``items`` the pairs in the order they came."""

    __slots__ = ("_fold", "_index", "_pairs")

    def __init__(self, pairs: list[tuple[str, str]], *, fold: bool) -> None:
        self._pairs = pairs
        self._fold = fold
        index: dict[str, list[str]] = {}
        for name, value in pairs:
            index.setdefault(name.lower() if fold else name, []).append(value)
        self._index = index

    def _key(self, name: str) -> str:
        return name.lower() if self._fold else name

    def get(self, name: str, default: Any = None) -> Any:
        values = self._index.get(self._key(name))
        return values[0] if values else default

    def getall(self, name: str, default: Any = ()) -> Any:
        return self._index.get(self._key(name), default)

    def __getitem__(self, name: str) -> str:
        values = self._index.get(self._key(name))
        if not values:
            raise KeyError(name)
        return values[0]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._key(name) in self._index

    def items(self) -> list[tuple[str, str]]:
        return list(self._pairs)

    def keys(self) -> list[str]:
        return [name for name, _ in self._pairs]

    def __iter__(self) -> Iterator[str]:
        return iter(self.keys())

    def __len__(self) -> int:
        return len(self._pairs)

    def distinct(self) -> int:
        """How many different names: fewer than ``len`` when a name is given twice."""
        return len(self._index)

    def __repr__(self) -> str:
        return f"MultiMap({self._pairs!r})"


def parse_content_type(value: str | None) -> tuple[str, dict[str, str]]:
    """``text/plain; charset=latin-1`` → ``("text/plain", {"charset": "latin-1"})``: the
    type in lower case, ``application/octet-stream`` when none is named."""
    if not value:
        return DEFAULT_CONTENT_TYPE, {}
    mime, *params = value.split(";")
    found: dict[str, str] = {}
    for param in params:
        name, sep, raw = param.partition("=")
        if sep:
            found[name.strip().lower()] = raw.strip().strip('"')
    return mime.strip().lower() or DEFAULT_CONTENT_TYPE, found


class Request:
    """One request, read whole (its body is bytes by the time a handler runs)."""

    __slots__ = (
        "_content_type",
        "_path",
        "_query",
        "body",
        "body_exists",
        "calls",
        "describes",
        "endpoint",
        "gateway",
        "headers",
        "id",
        "method",
        "params",
        "principal",
        "remote",
        "route",
        "target",
        "trace",
        "writes",
    )

    def __init__(
        self,
        gateway: Gateway,
        method: str,
        target: str,
        headers: MultiMap,
        remote: str | None,
        body: bytes = b"",
        body_exists: bool = False,
    ) -> None:
        self.gateway = gateway
        self.method = method
        self.target = target  # as sent: path and query, percent-encoded
        self.headers = headers
        self.remote = remote
        self.body = body
        self.body_exists = body_exists
        self.endpoint = ""  # the serving endpoint's path pattern ("/q", "/jobs/{id}", "/{tail}"): the router's
        self.params: dict[str, str] = {}  # the pattern's variable parts
        self.route = ""  # the route that answered ("GET /ebay/item/{id}"), for the metrics' label
        # noted while it is answered
        self.id = ""
        self.principal: Principal | None = None
        self.calls: Diagnostics | None = None  # a script's or route's run: counted in the access log
        self.writes = False  # the run wrote to a table: never JSONP
        self.describes = False  # a describe endpoint's answer: may become an HTML page
        self.trace: TraceContext | None = None  # its trace, when traces are on (``tracing.py``)
        self._path: str | None = None
        self._query: MultiMap | None = None
        self._content_type: tuple[str, dict[str, str]] | None = None

    # ------------------------------------------------------------------ the URL
    @property
    def path(self) -> str:
        """The path, percent-decoded (``/a%20b`` → ``/a b``)."""
        if self._path is None:
            raw = self.target.partition("#")[0].partition("?")[0]
            self._path = unquote(raw, errors="surrogateescape") if "%" in raw else raw
        return self._path

    @property
    def query_string(self) -> str:
        return self.target.partition("#")[0].partition("?")[2]

    @property
    def query(self) -> MultiMap:
        """The query's pairs, decoded (``+`` is a space), blanks kept."""
        if self._query is None:
            text = self.query_string
            pairs = parse_qsl(text, keep_blank_values=True, errors="surrogateescape") if text else []
            self._query = MultiMap(pairs, fold=False)
        return self._query

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

    def __repr__(self) -> str:
        return f"<Request {self.method} {self.target[:80]}>"
