"""Outbound HTTP: one connection pool per engine, our own HTTP/1.1 on asyncio.

Fan-out is the hot path, and its cost was the HTTP machinery: aiohttp's client spent
about 110 µs of CPU per call, httpx 2 ms, where an asyncio protocol with ``httptools``'
parser spends under 20 (``bench/http_clients.py`` measures them side by side). So the
wire is ours: ``wire.py`` (one connection, the parser, timeouts, caps, framings),
``pool.py`` (keep-alive per origin, TLS, CONNECT tunnels), ``head.py`` (the request's
bytes). This module adds what spans hops: redirects with the per-hop allow-list
(``check_url``) and credentials dropped across origins, one retry for reads, content
decoding, and the errors callers see (§10.6, §10.7). Config ``proxy`` (``proxy.py``)
is decided per hop: each URL, a redirect's too, goes through the proxy its scheme
and host call for, or directly.
"""

from __future__ import annotations

import asyncio
import ssl
import time
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit

from ..errors import RequestBytesExceeded, UpstreamTimeout, UpstreamUnavailable
from .budget import AnswerBudget
from .head import BadUrl, serialise, split_url
from .pool import Pool, ProxyRefused, _ProxyUnreachable
from .proxy import ProxyServer, ProxySettings
from .wire import BudgetSpent, WireError, WireTimeout

# methods a request may be sent again for when a reused keep-alive connection turns out
# to have been closed by the server before it read anything (RFC 9110 §9.2.2)
_IDEMPOTENT = frozenset({"GET", "HEAD", "PUT", "DELETE", "OPTIONS"})

REDIRECT_STATUSES = (301, 302, 303, 307, 308)
MAX_REDIRECTS = 10
# credentials a redirect to another origin (scheme, host or port) must not carry there
CREDENTIAL_HEADERS = frozenset({"authorization", "proxy-authorization", "cookie", "x-ebay-api-iaf-token"})


@dataclass(slots=True)
class HttpRequest:
    method: str
    url: str
    headers: dict[str, str]  # lower-case names
    body: bytes | None = None
    timeout_ms: int = 10_000
    retry: bool = False
    check_url: Callable[[str], None] | None = None  # raises for URLs this request may not reach (every hop)
    budget: AnswerBudget | None = None  # the bytes of answers the run it belongs to may still read


@dataclass(slots=True)
class HttpResponse:
    status: int
    headers: dict[str, str]  # lower-case names
    body: bytes  # content-decoded
    url: str
    wire_bytes: int = 0
    started: float = 0.0
    ended: float = 0.0
    attempts: int = 1
    redirects: list[str] = field(default_factory=list)
    proxy: str | None = None  # the proxy the last hop went through (its URL without credentials)
    # what the readers of one answer shared by several (single flight) share of it: its
    # decoded body, read once (``tables/response.py``); None while it has one reader
    shared: dict[str, Any] | None = None


def _decode_content(body: bytes, encoding: str, limit: int, url: str) -> bytes:
    encoding = encoding.strip().lower()
    if encoding in ("", "identity"):
        return body
    if encoding in ("gzip", "x-gzip"):
        decoder = zlib.decompressobj(16 + zlib.MAX_WBITS)
    elif encoding == "deflate":
        decoder = zlib.decompressobj(zlib.MAX_WBITS)
        try:
            out = decoder.decompress(body, limit + 1)
        except zlib.error:
            decoder = zlib.decompressobj(-zlib.MAX_WBITS)  # raw deflate, as some servers send
        else:
            if len(out) > limit:
                raise UpstreamUnavailable(f"decoded response from {url} exceeds {limit} bytes", uri=url)
            return out + decoder.flush()
    else:
        raise UpstreamUnavailable(f"unsupported content encoding '{encoding}' from {url}", uri=url)
    try:
        out = decoder.decompress(body, limit + 1)
    except zlib.error as e:
        raise UpstreamUnavailable(f"cannot decode {encoding} response from {url}: {e}", uri=url) from None
    if len(out) > limit:
        raise UpstreamUnavailable(f"decoded response from {url} exceeds {limit} bytes", uri=url)
    return out + decoder.flush()


class HttpClient:
    """Sends ``HttpRequest``s over a shared keep-alive connection pool."""

    def __init__(
        self,
        *,
        max_response_bytes: int = 10_000_000,
        pool_size: int = 256,
        secrets: Callable[[], Iterable[str]] | None = None,
        proxy: ProxySettings | None = None,
        ssl_context: ssl.SSLContext | None = None,
    ):
        self.max_response_bytes = max_response_bytes
        self.proxy = proxy
        # the CAs origins' certificates are verified against (the system's unless given)
        self.ssl_context = ssl_context
        self.pool_size = pool_size
        # the config's secrets (``Secrets.values``), read at each redirect: a header that holds
        # one does not follow a redirect to another origin either
        self.secrets = secrets
        self._pool: Pool | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def pool(self) -> Pool:
        """The connections of the running loop (a pool belongs to one loop: a client
        used from another, as tests and ``qlgate run`` do, gets a fresh one)."""
        loop = asyncio.get_running_loop()
        if self._pool is None or self._loop is not loop:
            self._pool = Pool(limit=self.pool_size, keepalive=30.0, ssl_context=self.ssl_context)
            self._loop = loop
        return self._pool

    async def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
        self._pool = None

    async def send(self, request: HttpRequest) -> HttpResponse:
        """Send with redirects (GET/HEAD), one retry for reads on network failure.

        Both loops are here, around one hop (``_send_once``), so that a call waiting on
        its socket holds two frames of the client, not four."""
        attempts = 2 if request.retry else 1
        attempt = 1
        follow = request.method.upper() in ("GET", "HEAD")
        url, headers = request.url, request.headers
        hops: list[str] = []
        started = time.perf_counter()
        while True:
            if request.check_url is not None:
                try:
                    request.check_url(url)
                except ValueError as e:  # not even a URL ("http://[::1"): what aiohttp would say
                    raise UpstreamUnavailable(f"cannot reach {url}: invalid URL ({e})", uri=url) from None
            if hops and headers and _origin(url) != _origin(request.url):
                headers = self._without_credentials(headers)
            try:
                response = await self._send_once(request, url, headers)
            except (UpstreamTimeout, _NetworkError) as e:
                if attempt < attempts:  # once more, from the start
                    attempt += 1
                    url, headers, hops = request.url, request.headers, []
                    started = time.perf_counter()
                    continue
                if isinstance(e, _NetworkError):
                    raise UpstreamUnavailable(str(e), uri=request.url) from None
                raise
            if follow and response.status in REDIRECT_STATUSES:
                hops.append(url)
                url = self._redirect(request, response, url, len(hops))
                continue
            if follow and response.status == 305:
                raise UpstreamUnavailable(f"upstream {url} asked for a proxy (305)", uri=url)
            response.started = started
            response.redirects = hops
            response.attempts = attempt
            return response

    @staticmethod
    def _redirect(request: HttpRequest, response: HttpResponse, url: str, hops: int) -> str:
        """Where a redirect from ``url`` leads (the ``hops``-th of the request)."""
        location = response.headers.get("location")
        if not location:
            raise UpstreamUnavailable(
                f"redirect {response.status} from {url} has no Location", uri=url, upstream_status=response.status
            )
        if hops > MAX_REDIRECTS:
            raise UpstreamUnavailable(
                f"too many redirects (more than {MAX_REDIRECTS}) from {request.url}", uri=request.url
            )
        try:
            return urljoin(url, location)
        except ValueError:  # the upstream's Location is not a URL ("http://[::1")
            raise UpstreamUnavailable(
                f"redirect {response.status} from {url} has an invalid Location {location[:200]!r}",
                uri=url,
                upstream_status=response.status,
            ) from None

    def _without_credentials(self, headers: dict[str, str]) -> dict[str, str]:
        """``headers`` without what authorises the request: the credential headers, and
        any header whose value holds a config secret (an API key a table sends its own way)."""
        values = self.secrets() if self.secrets is not None else ()
        return {
            name: value
            for name, value in headers.items()
            if name.lower() not in CREDENTIAL_HEADERS and not any(secret in value for secret in values)
        }

    async def _send_once(
        self, request: HttpRequest, url: str, send_headers: dict[str, str] | None = None
    ) -> HttpResponse:
        method = request.method.upper()
        headers = request.headers if send_headers is None else send_headers
        limit = self.max_response_bytes
        proxy = self.proxy.for_url(url) if self.proxy is not None else None
        try:
            origin, target = split_url(url)
            data = serialise(method, origin, target, headers, request.body, proxy)
        except BadUrl as e:
            raise UpstreamUnavailable(f"cannot reach {url}: invalid URL ({e})", uri=url) from None
        key = (origin.scheme, origin.host, origin.port, proxy.url if proxy is not None else None)
        timeout = max(request.timeout_ms, 1) / 1000
        pool = self.pool
        started = time.perf_counter()
        while True:
            try:
                conn, reused = await pool.acquire(key, proxy, timeout)
            except (TimeoutError, WireTimeout):
                raise self._timed_out(request, url, proxy) from None
            except ProxyRefused as e:
                assert proxy is not None
                error = _proxy_refused(proxy, "CONNECT", url, e.status, e.reason)
                if e.status == 407:
                    raise error from None
                raise _NetworkError(error.message) from None
            except _ProxyUnreachable as e:
                assert proxy is not None
                raise _NetworkError(
                    f"cannot reach proxy {proxy.url} (for {url}): {type(e.cause).__name__}: {e.cause}"
                ) from None
            except WireError as e:
                raise _NetworkError(f"cannot reach {url}: {e}") from None
            except (OSError, UnicodeError) as e:  # UnicodeError: a host name no resolver takes ("a..b")
                raise _NetworkError(f"cannot reach {url}: {type(e).__name__}: {e}") from None
            try:
                try:  # the answer's future awaited here: no frame of the connection's while it waits
                    raw = await conn.begin(data, timeout, limit, method == "HEAD", request.budget)
                finally:
                    conn.end()
            except WireTimeout:
                pool.release(key, conn, keep=False)
                raise self._timed_out(request, url, proxy) from None
            except WireError as e:
                pool.release(key, conn, keep=False)
                if isinstance(e, BudgetSpent):
                    raise _over_budget(request, url) from None
                if reused and e.fresh and method in _IDEMPOTENT:
                    continue  # the server had closed this idle connection: a new one
                if e.over_limit:
                    raise UpstreamUnavailable(f"response from {url} {e}", uri=url) from None
                raise _NetworkError(f"bad response from {url}: {e}") from None
            except BaseException:  # cancelled mid-answer: the connection's state is unknown
                pool.release(key, conn, keep=False)
                raise
            pool.release(key, conn, keep=raw.keep_alive)
            break
        if proxy is not None and raw.status == 407 and origin.scheme == "http":  # the proxy's answer
            raise _proxy_refused(proxy, method, url, 407, raw.reason)
        answer_headers = raw.headers
        body = _decode_content(raw.body, answer_headers.get("content-encoding", ""), limit, url)
        budget = request.budget
        if budget is not None and len(body) > len(raw.body) and not budget.take(len(body) - len(raw.body)):
            raise _over_budget(request, url)  # what it decompressed to counts, not what came
        return HttpResponse(
            raw.status,
            answer_headers,
            body,
            url,
            wire_bytes=len(raw.body),
            started=started,
            ended=time.perf_counter(),
            proxy=proxy.url if proxy is not None else None,
        )

    @staticmethod
    def _timed_out(request: HttpRequest, url: str, proxy: ProxyServer | None) -> UpstreamTimeout:
        via = f" (via proxy {proxy.url})" if proxy is not None else ""
        return UpstreamTimeout(
            f"Request timed out after {request.timeout_ms} ms: {request.method.upper()} {url}{via}", uri=url
        )


def _over_budget(request: HttpRequest, url: str) -> RequestBytesExceeded:
    limit = request.budget.limit if request.budget is not None else 0
    return RequestBytesExceeded(
        f"the request's upstream answers came to more than {limit:,} bytes (gateway.maxRequestBytes), "
        f"reading {request.method.upper()} {url}"
    )


def _proxy_refused(proxy: ProxyServer, method: str, url: str, status: int, reason: str) -> UpstreamUnavailable:
    """The proxy's refusal, naming the proxy (never its credentials)."""
    said = f"{status} {reason}".strip()
    if status == 407:
        said += (
            ": it refused the credentials in config proxy"
            if proxy.has_credentials
            else ": it wants credentials (user:password@ in the proxy URL of config proxy)"
        )
    return UpstreamUnavailable(f"proxy {proxy.url} refused {method} {url}: {said}", uri=url, upstream_status=status)


def _origin(url: str) -> tuple[str, str, int | None]:
    """(scheme, host, port) of ``url``, the default port filled in; a URL that has none
    (or is not one) stands for an origin of its own."""
    try:
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        return scheme, (parts.hostname or "").lower(), parts.port or {"http": 80, "https": 443}.get(scheme)
    except ValueError:
        return "", url, None


class _NetworkError(Exception):
    """Connection-level failure; retried once for reads, then UpstreamUnavailable."""
