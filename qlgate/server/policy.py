"""What the gateway accepts (config key ``gateway``), with safe defaults:

    "gateway": {
      "maxBodyBytes": 1048576,        request body size
      "maxScriptLength": 65536,       characters of an ad-hoc script
      "requestTimeoutMs": 60000,      total time of one request
      "adhoc": {
        "enabled": true,              serve /q at all
        "inlineTables": true,         allow create table in /q scripts
        "allowedHosts": null          upstream hosts /q may reach ("host", "host:port", "*.ebay.com");
      }                               null = the hosts the loaded tables already use
    }

The allow-list keeps ad-hoc scripts from reaching internal addresses through
the gateway (server-side request forgery): by default a /q script can only
call the upstreams the deployment's own tables call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fnmatch import fnmatch
from typing import Any, Iterable
from urllib.parse import urlsplit

from ..errors import QlError
from ..tables.model import Table


class UpstreamNotAllowed(QlError):
    status = 403


@dataclass(frozen=True)
class HostAllowList:
    patterns: tuple[str, ...]
    # verdicts by scheme://netloc: every upstream call of an ad-hoc script is checked,
    # and a script's calls go to a handful of origins
    _verdicts: dict[str, bool] = field(default_factory=dict, compare=False, repr=False)

    def allows(self, url: str) -> bool:
        scheme, sep, rest = url.partition("://")
        origin = scheme.lower() + sep + re.split(r"[/?#]", rest, maxsplit=1)[0]
        verdict = self._verdicts.get(origin)
        if verdict is None:
            verdict = self._allows_origin(origin)
            if len(self._verdicts) >= 4096:
                self._verdicts.clear()
            self._verdicts[origin] = verdict
        return verdict

    def _allows_origin(self, origin: str) -> bool:
        parts = urlsplit(origin)
        host = (parts.hostname or "").lower()
        try:
            port = parts.port or (443 if parts.scheme == "https" else 80)
        except ValueError:  # a port that is not a number
            return False
        return any(fnmatch(f"{host}:{port}", p) or fnmatch(host, p) for p in self.patterns)

    def check(self, url: str) -> None:
        if not self.allows(url):
            host = urlsplit(url).netloc
            raise UpstreamNotAllowed(f"ad-hoc scripts may not call {host}: it is not in gateway.adhoc.allowedHosts")

    @classmethod
    def from_tables(cls, tables: Iterable[Table]) -> "HostAllowList":
        """The hosts the loaded tables call (templates whose host is fixed after load)."""
        patterns = set()
        for table in tables:
            for mapping in table.mappings.values():
                parts = urlsplit(mapping.uri.raw)
                if parts.scheme in ("http", "https") and parts.hostname and "{" not in parts.netloc:
                    port = parts.port or (443 if parts.scheme == "https" else 80)
                    patterns.add(f"{parts.hostname.lower()}:{port}")
        return cls(tuple(sorted(patterns)))


@dataclass(frozen=True)
class GatewayPolicy:
    max_body_bytes: int = 1024 * 1024
    max_script_length: int = 65536
    request_timeout_ms: int = 60_000
    adhoc_enabled: bool = True
    inline_tables: bool = True
    allowed_hosts: HostAllowList | None = None

    @classmethod
    def from_config(cls, config: dict[str, Any], tables: Iterable[Table], *, disable_q: bool = False) -> "GatewayPolicy":
        section = config.get("gateway") or {}
        adhoc = section.get("adhoc") or {}

        def number(key: str, default: int) -> int:
            value = section.get(key)
            return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0 \
                else default
        hosts = adhoc.get("allowedHosts")
        allow = HostAllowList(tuple(str(h).lower() for h in hosts)) if isinstance(hosts, list) \
            else HostAllowList.from_tables(tables)
        return cls(max_body_bytes=number("maxBodyBytes", cls.max_body_bytes),
                   max_script_length=number("maxScriptLength", cls.max_script_length),
                   request_timeout_ms=number("requestTimeoutMs", cls.request_timeout_ms),
                   adhoc_enabled=not disable_q and adhoc.get("enabled", config.get("enableQ", True)) is not False,
                   inline_tables=adhoc.get("inlineTables", True) is not False,
                   allowed_hosts=allow)
