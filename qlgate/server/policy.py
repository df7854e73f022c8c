"""What the gateway accepts (config key ``gateway``), with safe defaults:

    "gateway": {
      "maxBodyBytes": 1048576,        request body size
      "maxScriptLength": 65536,       characters of an ad-hoc script
      "requestTimeoutMs": 60000,      total time of one request
      "maxConnections": 1000,         client connections one process holds at once
      "maxHeadBytes": 67108864,       bytes of request heads one process reads at once
      "maxRequestBytes": 67108864,    bytes of upstream answers one request may read
      "jsonp": false,                 answer ?callback=fn (reads only)
      "adhoc": {
        "enabled": true,              accept callers' scripts at all (/q and POST /jobs)
        "inlineTables": true,         allow create table in them
        "allowedHosts": null,         upstreams they may reach ("host", "host:port", "*.ebay.com");
                                      null = the hosts the loaded tables already use
        "publicConfig": []            dotted config keys they may read ("shop.site")
      },
      "auth": {"keys": [...]}         API keys and their scopes (server/auth.py)
    }

What a caller's script may do is the trust policy (``qlgate.trust``); this is
what the gateway admits before a script runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GatewayPolicy:
    max_body_bytes: int = 1024 * 1024
    max_script_length: int = 65536
    request_timeout_ms: int = 60_000
    max_connections: int = 1000
    max_head_bytes: int = 64 * 1024 * 1024
    max_request_bytes: int = 64 * 1024 * 1024
    adhoc_enabled: bool = True  # callers' scripts (/q, POST /jobs)
    q_endpoint: bool = True  # serve /q (``serve --disable-q`` turns off the endpoint only)
    jsonp: bool = False

    @property
    def max_request_line(self) -> int:
        """The longest request line read: a ``GET /q?s=…`` of the longest script, each
        character up to 9 bytes once UTF-8 is percent-encoded (at least 8,190 bytes)."""
        return max(8190, 9 * self.max_script_length + 4096)

    @classmethod
    def from_config(cls, config: dict[str, Any], *, disable_q: bool = False) -> GatewayPolicy:
        section = config.get("gateway") or {}
        adhoc = section.get("adhoc") or {}

        def number(key: str, default: int) -> int:
            value = section.get(key)
            return (
                int(value)
                if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value < 2**53
                else default
            )

        enabled = adhoc.get("enabled", config.get("enableQ", True)) is not False
        return cls(
            max_body_bytes=number("maxBodyBytes", cls.max_body_bytes),
            max_script_length=number("maxScriptLength", cls.max_script_length),
            request_timeout_ms=number("requestTimeoutMs", cls.request_timeout_ms),
            max_connections=number("maxConnections", cls.max_connections),
            max_head_bytes=number("maxHeadBytes", cls.max_head_bytes),
            max_request_bytes=number("maxRequestBytes", cls.max_request_bytes),
            adhoc_enabled=enabled,
            q_endpoint=enabled and not disable_q,
            jsonp=section.get("jsonp") is True,
        )
