"""The outbound proxy (config ``proxy``): which proxy, if any, a request to a URL goes through.

A gateway inside a company network often reaches partner APIs only through a forward
proxy. ``proxy`` names one for plain-HTTP requests (sent to it in absolute form) and one
for HTTPS requests (tunnelled with CONNECT; TLS runs to the origin inside the tunnel and
the origin's certificate is verified as without a proxy), and ``noProxy`` the hosts
reached directly:

    "proxy": "http://proxy.internal:3128"
    "proxy": {"http": "http://user:pass@proxy.internal:3128", "https": "…", "noProxy": "localhost,.corp.example"}
    "proxy": "env"

The process's own ``HTTP_PROXY`` / ``HTTPS_PROXY`` / ``NO_PROXY`` are read only when the
config says ``"env"``: a gateway's route to the outside is the deployer's decision, written
in its config, not whatever environment a process manager happens to hand it.

``noProxy`` entries: ``*`` (everything), a host (``api.example``, matching its subdomains
too, with or without a leading dot or ``*.``), an IP address, a CIDR range (``10.0.0.0/8``,
matched against IP-literal hosts only: names are never resolved to decide), each with an
optional ``:port``. Credentials in a proxy URL go to the proxy as ``Proxy-Authorization:
Basic``, never to an origin, and are secrets of the config; ``ProxyServer.url`` is the URL
without them, the one errors name.
"""

from __future__ import annotations

import base64
import ipaddress
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

from ..errors import ConfigError

_DEFAULT_PORTS = {"http": 80, "https": 443}
_KEYS = frozenset({"http", "https", "noProxy"})


@dataclass(frozen=True, slots=True)
class ProxyServer:
    url: str  # scheme://host:port, without credentials: what errors and logs name
    username: str = ""
    password: str = ""

    @property
    def has_credentials(self) -> bool:
        return bool(self.username or self.password)

    @property
    def authorization(self) -> str | None:
        """``Proxy-Authorization`` for this proxy: Basic, when its URL carries credentials."""
        if not self.has_credentials:
            return None
        pair = f"{self.username}:{self.password}".encode()
        return "Basic " + base64.b64encode(pair).decode("ascii")

    def secrets(self) -> set[str]:
        """What must be masked: the password, the user-info as written, the Basic token."""
        if self.authorization is None:
            return set()
        token = self.authorization.removeprefix("Basic ")
        return {value for value in (self.password, f"{self.username}:{self.password}", token) if value}


@dataclass(frozen=True, slots=True)
class _Rule:
    kind: str  # "any", "domain", "ip", "net"
    value: Any = None  # the domain (str), the address, or the network
    port: int | None = None

    def matches(self, host: str, address: Any, port: int | None) -> bool:
        if self.port is not None and self.port != port:
            return False
        if self.kind == "any":
            return True
        if self.kind == "domain":
            return host == self.value or host.endswith("." + self.value)
        if address is None:
            return False
        if self.kind == "ip":
            return bool(address == self.value)
        return bool(address.version == self.value.version and address in self.value)


@dataclass(frozen=True, slots=True)
class ProxySettings:
    http: ProxyServer | None = None
    https: ProxyServer | None = None
    no_proxy: tuple[_Rule, ...] = ()
    source: str = "config"  # or "env"

    def for_url(self, url: str) -> ProxyServer | None:
        """The proxy a request to ``url`` goes through, or None to go direct."""
        try:
            parts = urlsplit(url)
            scheme = parts.scheme.lower()
            server = self.https if scheme == "https" else self.http if scheme == "http" else None
            if server is None:
                return None
            host = (parts.hostname or "").rstrip(".").lower()
            port = parts.port or _DEFAULT_PORTS.get(scheme)
        except ValueError:
            return None  # not a URL: the request fails on its own, directly
        if self.no_proxy:
            try:
                address: Any = ipaddress.ip_address(host)
            except ValueError:
                address = None
            if any(rule.matches(host, address, port) for rule in self.no_proxy):
                return None
        return server

    def secrets(self) -> set[str]:
        return {s for server in (self.http, self.https) if server is not None for s in server.secrets()}

    def describe(self) -> str:
        """The settings without credentials, for logs and ``qlgate`` diagnostics."""
        http = self.http.url if self.http else "direct"
        https = self.https.url if self.https else "direct"
        return f"http via {http}, https via {https}, {len(self.no_proxy)} noProxy entries (from {self.source})"


def proxy_settings(value: Any, env: Mapping[str, str]) -> ProxySettings | None:
    """Config ``proxy`` read: None (or absent, empty, false) for no proxy at all."""
    if value is None or value is False or value == "":
        return None
    if value == "env":
        return _from_env(env)
    if isinstance(value, str):
        server = _server(value, "proxy")
        return ProxySettings(server, server)
    if not isinstance(value, dict):
        raise ConfigError(f'config proxy must be a proxy URL, "env" or an object, not {type(value).__name__}')
    unknown = sorted(set(value) - _KEYS)
    if unknown:
        raise ConfigError(f"config proxy has unknown keys {', '.join(unknown)} (it takes http, https, noProxy)")
    http = _server(value.get("http"), "proxy.http")
    https = _server(value.get("https"), "proxy.https")
    rules = _rules(value.get("noProxy"), "proxy.noProxy")
    if http is None and https is None:
        return None
    return ProxySettings(http, https, rules)


def _from_env(env: Mapping[str, str]) -> ProxySettings | None:
    def read(name: str) -> str:
        # the lower-case form first, as curl and Python's urllib read it
        return env.get(name.lower()) or env.get(name.upper()) or ""

    http = _server(read("http_proxy"), "proxy (HTTP_PROXY)")
    https = _server(read("https_proxy"), "proxy (HTTPS_PROXY)")
    if http is None and https is None:
        return None
    return ProxySettings(http, https, _rules(read("no_proxy"), "proxy (NO_PROXY)"), source="env")


def _server(value: Any, where: str) -> ProxyServer | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise ConfigError(f"config {where} must be a proxy URL, not {type(value).__name__}")
    text = value.strip()
    if "://" not in text:
        text = "http://" + text  # "proxy.internal:3128", as HTTP_PROXY is often written
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise ConfigError(f"config {where} is not a valid proxy URL: {_shown(text)}") from None
    scheme = parts.scheme.lower()
    if scheme != "http":
        raise ConfigError(
            f"config {where}: only http:// proxies are supported (HTTPS requests reach them by CONNECT), "
            f"not {_shown(text)}"
        )
    if not parts.hostname:
        raise ConfigError(f"config {where} has no host: {_shown(text)}")
    host = parts.hostname
    netloc = f"[{host}]" if ":" in host else host
    url = f"http://{netloc}:{port or 80}"
    return ProxyServer(url, unquote(parts.username or ""), unquote(parts.password or ""))


def _shown(url: str) -> str:
    """``url`` without its user-info (the credentials a config error must not quote)."""
    scheme, sep, rest = url.partition("://")
    authority, slash, path = rest.partition("/")
    return scheme + sep + authority.rpartition("@")[2] + slash + path


def _rules(value: Any, where: str) -> tuple[_Rule, ...]:
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        entries: Iterable[Any] = value.replace(";", ",").replace(" ", ",").split(",")
    elif isinstance(value, list):
        entries = value
    else:
        raise ConfigError(f"config {where} must be a comma-separated string or a list, not {type(value).__name__}")
    rules = []
    for entry in entries:
        if not isinstance(entry, str):
            raise ConfigError(f"config {where} entries must be strings, not {type(entry).__name__}")
        rule = _rule(entry.strip().lower(), where)
        if rule is not None:
            rules.append(rule)
    return tuple(rules)


def _rule(entry: str, where: str) -> _Rule | None:
    if not entry:
        return None
    if entry == "*":
        return _Rule("any")
    port_text = ""
    if entry.startswith("["):  # [::1] or [::1]:8080
        host, _, rest = entry[1:].partition("]")
        if rest:
            if not rest.startswith(":"):
                raise ConfigError(f"config {where} has an invalid entry {entry!r}")
            port_text = rest[1:]
    elif entry.count(":") == 1:  # host:port (more colons: an IPv6 address or range)
        host, _, port_text = entry.partition(":")
    else:
        host = entry
    port = None
    if port_text:
        if not port_text.isdigit() or not 0 < int(port_text) < 65536:
            raise ConfigError(f"config {where} has an invalid port in {entry!r}")
        port = int(port_text)
    if "/" in host:
        try:
            return _Rule("net", ipaddress.ip_network(host, strict=False), port)
        except ValueError:
            raise ConfigError(f"config {where} has an invalid CIDR range {entry!r}") from None
    try:
        return _Rule("ip", ipaddress.ip_address(host), port)
    except ValueError:
        pass
    domain = host.removeprefix("*").lstrip(".").rstrip(".")
    if not domain:
        return _Rule("any", port=port)
    return _Rule("domain", domain, port)
