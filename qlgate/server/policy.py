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

from ..config_keys import declared_default
from ..config_values import ConfigView


@dataclass(frozen=True)
class GatewayPolicy:
    max_body_bytes: int = declared_default("gateway.maxBodyBytes")
    max_script_length: int = declared_default("gateway.maxScriptLength")
    request_timeout_ms: int = declared_default("gateway.requestTimeoutMs")
    max_connections: int = declared_default("gateway.maxConnections")
    max_head_bytes: int = declared_default("gateway.maxHeadBytes")
    max_request_bytes: int = declared_default("gateway.maxRequestBytes")
    adhoc_enabled: bool = True  # callers' scripts (/q, POST /jobs)
    q_endpoint: bool = True  # serve /q (``serve --disable-q`` turns off the endpoint only)
    jsonp: bool = declared_default("gateway.jsonp")

    @property
    def max_request_line(self) -> int:
        """The longest request line read: a ``GET /q?s=…`` of the longest script, each
        character up to 9 bytes once UTF-8 is percent-encoded (at least 8,190 bytes)."""
        return max(8190, 9 * self.max_script_length + 4096)

    @classmethod
    def from_config(cls, config: dict[str, Any] | ConfigView, *, disable_q: bool = False) -> GatewayPolicy:
        view = config if isinstance(config, ConfigView) else ConfigView(config)
        # ``enableQ``, the older switch, counts only when gateway.adhoc.enabled is not written
        enabled = view.boolean("gateway.adhoc.enabled" if view.has("gateway.adhoc.enabled") else "enableQ")
        return cls(
            max_body_bytes=view.integer("gateway.maxBodyBytes"),
            max_script_length=view.integer("gateway.maxScriptLength"),
            request_timeout_ms=view.integer("gateway.requestTimeoutMs"),
            max_connections=view.integer("gateway.maxConnections"),
            max_head_bytes=view.integer("gateway.maxHeadBytes"),
            max_request_bytes=view.integer("gateway.maxRequestBytes"),
            adhoc_enabled=enabled,
            q_endpoint=enabled and not disable_q,
            jsonp=view.boolean("gateway.jsonp"),
        )
