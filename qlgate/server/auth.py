"""Who may call the gateway, and for what (config ``gateway.auth``).

    "gateway": {"auth": {"keys": [
      {"name": "shop-frontend", "key": "${SHOP_FRONTEND_KEY}", "scopes": ["query", "routes"]},
      {"name": "ops", "key": "${OPS_KEY}", "scopes": ["admin", "console", "jobs"]}
    ]}}

Callers send ``Authorization: Bearer <key>``. A scope opens a family of
endpoints (``SCOPES``); which endpoint needs which is declared once, in
``ENDPOINTS``, so the table reads as the gateway's access policy. Keys are
compared in constant time (as SHA-256 digests, so their lengths do not show
either) and never logged: the access log names the key, not its value.

Without ``gateway.auth`` the gateway is *open*: it answers loopback clients
only, refuses a ``Host`` that is not a loopback name (DNS rebinding) and any
request a browser marks as coming from another site (``Origin``,
``Sec-Fetch-Site``) — unless it was started ``--insecure``.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from ..config_values import ConfigView
from ..errors import ConfigError, QlError

if TYPE_CHECKING:
    from .request import Request

QUERY, ROUTES, JOBS, ADMIN, CONSOLE = "query", "routes", "jobs", "admin", "console"
SCOPES = {
    QUERY: "ad-hoc scripts: /q",
    ROUTES: "the named routes of routes/",
    JOBS: "submit jobs; read, wait on and cancel the jobs this key submitted; read limits and rates",
    ADMIN: "set limits and rates; read and cancel every job; the job backend's state",
    CONSOLE: "the web console's data: tables, routes and their describe pages",
}
PUBLIC = None

# (method, endpoint pattern) → the scope it needs; "*" is any method. Patterns are
# the router's (``router.py``); the catch-all "/{tail}" serves the named routes.
ENDPOINTS: dict[tuple[str, str], str | None] = {
    ("*", "/health"): PUBLIC,
    ("*", "/ready"): PUBLIC,  # for load balancers, as /health; it names services, never their addresses
    ("*", "/metrics"): ADMIN,  # counts by table and route: an operator's, not every caller's
    ("*", "/console"): PUBLIC,  # the page itself: it asks for a key, then calls the rest
    ("*", "/console/"): PUBLIC,
    ("*", "/console/static/{file:rest}"): PUBLIC,
    ("*", "/q"): QUERY,
    ("*", "/tables"): CONSOLE,
    ("*", "/table"): CONSOLE,
    ("*", "/tables/{name}"): CONSOLE,
    ("*", "/routes"): CONSOLE,
    ("*", "/api"): CONSOLE,
    ("*", "/route"): CONSOLE,
    ("*", "/routes/{method}/{path:rest}"): CONSOLE,
    ("POST", "/jobs"): JOBS,
    ("GET", "/jobs"): JOBS,
    ("GET", "/jobs/{id}"): JOBS,
    ("GET", "/jobs/{id}/result"): JOBS,
    ("DELETE", "/jobs/{id}"): JOBS,
    ("POST", "/jobs/{id}/cancel"): JOBS,
    ("GET", "/limits"): JOBS,
    ("GET", "/rates"): JOBS,
    ("GET", "/jobs/backend"): ADMIN,
    ("PUT", "/limits/{type}"): ADMIN,
    ("PUT", "/rates/{type}"): ADMIN,
    ("*", "/{tail}"): ROUTES,
}
# the jobs endpoints take either scope: admin sees and cancels every job
ALSO_ALLOWED = {JOBS: ADMIN}


class NotAuthenticated(QlError):
    status = 401


class NotAllowed(QlError):
    status = 403
    principal: Principal | None = None


@dataclass(frozen=True)
class Principal:
    """Who is calling: a key's name and scopes; ``name`` None on an open gateway."""

    name: str | None
    scopes: frozenset[str]

    def may(self, scope: str) -> bool:
        return scope in self.scopes or ALSO_ALLOWED.get(scope, "") in self.scopes

    @property
    def admin(self) -> bool:
        return ADMIN in self.scopes


LOCAL = Principal(None, frozenset(SCOPES))  # anyone on an open gateway (loopback only)
_SCOPE_OF_ROUTE: dict[tuple[str, str], str | None] = {}  # (method, endpoint pattern) → scope


def _scope_of(method: str, endpoint: str) -> str | None:
    method = "GET" if method == "HEAD" else method  # a HEAD is answered by the GET's handler
    for key in ((method, endpoint), ("*", endpoint)):
        if key in ENDPOINTS:
            return ENDPOINTS[key]
    return ADMIN


@dataclass(frozen=True)
class _Key:
    name: str
    digest: bytes
    scopes: frozenset[str]


def _digest(key: str) -> bytes:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).digest()


@dataclass(frozen=True)
class Gatekeeper:
    """Decides, per request, who is calling and whether the endpoint is theirs."""

    keys: tuple[_Key, ...] = ()
    insecure: bool = False  # open and answering every client (``serve --insecure``)

    @property
    def open(self) -> bool:
        return not self.keys

    @classmethod
    def from_config(cls, config: dict[str, Any] | ConfigView, *, insecure: bool = False) -> Gatekeeper:
        section = (config if isinstance(config, ConfigView) else ConfigView(config)).value("gateway.auth")
        if section is None:
            return cls((), insecure)
        entries = section.get("keys") if isinstance(section, dict) else None
        if not isinstance(entries, list) or not entries:
            raise ConfigError('gateway.auth.keys must be a non-empty list of {"name", "key", "scopes"}')
        keys, names = [], set()
        for index, entry in enumerate(entries):
            where = f"gateway.auth.keys[{index}]"
            if not isinstance(entry, dict):
                raise ConfigError(f"{where} must be an object with name, key and scopes")
            name, key, scopes = entry.get("name"), entry.get("key"), entry.get("scopes")
            if not isinstance(name, str) or not name or name in names:
                raise ConfigError(f"{where}.name must be a unique non-empty name")
            if not isinstance(key, str) or len(key) < 16:
                # an unset ${ENV} becomes "": refuse rather than accept an empty key
                raise ConfigError(
                    f"{where}.key (of {name}) must be at least 16 characters; is its environment variable set?"
                )
            if not isinstance(scopes, list) or not scopes or any(s not in SCOPES for s in scopes):
                raise ConfigError(f"{where}.scopes (of {name}) must list some of: {', '.join(SCOPES)}")
            names.add(name)
            keys.append(_Key(name, _digest(key), frozenset(scopes)))
        return cls(tuple(keys), insecure)

    def principal(self, request: Request) -> Principal:
        """The caller, or a typed 401/403 (the gateway's one error shape)."""
        if self.open:
            if not self.insecure:
                self._check_local(request)
            self._check_same_origin(request)
            return LOCAL
        header = request.headers.get("Authorization", "").strip()
        scheme, _, presented = header.partition(" ")
        if scheme.lower() != "bearer" or not presented.strip():
            raise NotAuthenticated(_missing_key(header, scheme))
        digest = _digest(presented.strip())
        found = None
        for key in self.keys:  # every key is compared: the time does not tell which matched
            if hmac.compare_digest(digest, key.digest):
                found = key
        if found is None:
            raise NotAuthenticated("the API key is not valid")
        return Principal(found.name, found.scopes)

    @staticmethod
    def required_scope(request: Request) -> str | None:
        """The scope an endpoint needs (``ENDPOINTS``); unknown endpoints need admin."""
        key = (request.method, request.endpoint)
        try:
            return _SCOPE_OF_ROUTE[key]
        except KeyError:
            pass
        if len(_SCOPE_OF_ROUTE) >= 4096:  # methods are the client's to choose: keep it bounded
            _SCOPE_OF_ROUTE.clear()
        scope = _SCOPE_OF_ROUTE[key] = _scope_of(*key)
        return scope

    def authorize(self, request: Request) -> Principal:
        scope = self.required_scope(request)
        if scope is PUBLIC and not self.open:
            return Principal(None, frozenset())
        principal = self.principal(request)
        if scope is not PUBLIC and not principal.may(scope):
            refused = NotAllowed(f"the key '{principal.name}' lacks the scope '{scope}' ({SCOPES[scope]})")
            refused.principal = principal  # the access log names who was refused
            raise refused
        return principal

    # ------------------------------------------------------------------ an open gateway
    @staticmethod
    def _check_local(request: Request) -> None:
        if not _loopback_address(request.remote):
            raise NotAllowed("this gateway has no gateway.auth, so it answers loopback clients only")
        forwarded = next((h for h in _PROXY_HEADERS if h in request.headers), None)
        if forwarded is not None:
            # a reverse proxy on this host makes every client look local
            raise NotAllowed(
                f"this gateway has no gateway.auth, so it answers loopback clients only, and this "
                f"request came through a proxy ({forwarded}): configure gateway.auth behind one"
            )
        if not _loopback_host_header(request.host or ""):
            raise NotAllowed(
                f"this gateway has no gateway.auth, so it answers only requests for a loopback "
                f"host name, not '{(request.host or '')[:100]}'"
            )

    @staticmethod
    def _check_same_origin(request: Request) -> None:
        """A browser says where a request comes from: refuse other sites, so a web page
        cannot use a visitor's open gateway (no cookies are needed for that)."""
        fetch_site = request.headers.get("Sec-Fetch-Site", "").lower()
        if fetch_site and fetch_site not in ("same-origin", "none"):
            raise NotAllowed(f"cross-site requests are refused by an open gateway (Sec-Fetch-Site: {fetch_site[:40]})")
        origin = request.headers.get("Origin")
        if origin is not None and origin.rstrip("/").lower() != f"{request.scheme}://{request.host}".lower():
            raise NotAllowed(f"requests from another origin ({origin[:100]}) are refused by an open gateway")


_PROXY_HEADERS = ("Forwarded", "X-Forwarded-For", "X-Real-IP")
_HOST = re.compile(r"(\[[0-9a-fA-F:.]+\]|[^:\[\]@/]*)(?::[0-9]{1,5})?\Z")


def _host_name(host: str) -> str:
    """The name in a Host header (``[::1]:3000`` → ``::1``); "" for anything that is
    not a plain host and optional port (``127.0.0.1:1@evil.example``)."""
    match = _HOST.match(host.strip())
    return match.group(1).strip("[]").lower() if match else ""


@lru_cache(maxsize=1024)  # per request, and clients name few hosts
def _loopback_host_header(value: str) -> bool:
    """Does a Host header name this machine (``localhost``, ``x.localhost``, a loopback address)?"""
    host = _host_name(value)
    return host == "localhost" or host.endswith(".localhost") or _loopback_address(host)


@lru_cache(maxsize=1024)  # per request, and clients come from few addresses
def _loopback_address(text: str | None) -> bool:
    if not text:
        return False
    try:
        address = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return False
    if address.version == 6 and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback


def loopback_host(host: str) -> bool:
    """Is a ``--host`` to listen on a loopback one (then an open gateway is safe to start)."""
    host = host.strip("[]").lower()
    return host == "localhost" or _loopback_address(host)


def _missing_key(header: str, scheme: str) -> str:
    """Why an Authorization header carries no key, in the caller's terms: none sent, a key
    sent without its scheme (``Authorization: KEY``, the most common slip, which "needs an
    API key" leaves the caller puzzled by: they sent one), or another scheme. The header's
    value is never echoed: it may be the key."""
    send = "send 'Authorization: Bearer <key>'"
    if not header:
        return f"this gateway needs an API key: {send}"
    if " " not in header:
        if scheme.lower() == "bearer":
            return f"the Authorization header has the scheme 'Bearer' but no key after it: {send}"
        return f"the Authorization header has no scheme before the key: {send}"
    return f"the Authorization scheme must be 'Bearer', not another: {send}"
