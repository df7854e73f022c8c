"""Which eBay a config talks to, chosen by one key: ``ebay.environment``.

``production`` and ``sandbox`` are eBay's two real environments; they differ only
in host names, so a config names its credentials once and this module fills in
every endpoint the eBay tables read — the legacy gateways (Finding, Shopping,
Trading), the REST hosts (``api``, ``apiz``, ``apix``, ``apim``) and the OAuth
token and consent URLs of the ``ebay.app`` / ``ebay.user`` credentials.
``emulator`` is the eBay emulator (the ``qlgate-ebay-emulator`` distribution), and ``auto`` (the default)
means the emulator unless eBay credentials are set.

Endpoints are filled, never forced: a value the config sets (an
``EBAY_TRADING_GATEWAY`` override, say) is kept; a missing or empty one gets the
environment's.
"""

from __future__ import annotations

import copy
from typing import Any

from ..config_values import ConfigView
from ..errors import ConfigError

ENVIRONMENTS = ("auto", "emulator", "sandbox", "production")
LEGACY_EMULATOR_MODES = {"always": "emulator", "auto": "auto", "off": "production"}


def _endpoints(sandbox: bool) -> dict[str, Any]:
    dot = ".sandbox" if sandbox else ""
    return {
        "tables": {
            "ebay": {
                "finding": {"gateway": f"https://svcs{dot}.ebay.com/services/search/FindingService/v1"},
                "shopping": {"gateway": f"https://open.api{dot}.ebay.com/shopping"},
                "trading": {"gateway": f"https://api{dot}.ebay.com/ws/api.dll"},
                "rest": {
                    "hosts": {host: f"https://{host}{dot}.ebay.com" for host in ("api", "apiz", "apix", "apim")},
                    "marketplace": "EBAY_US",
                },
            }
        },
        "auth": {
            name: {
                "tokenUrl": f"https://api{dot}.ebay.com/identity/v1/oauth2/token",
                "authorizeUrl": f"https://auth{dot}.ebay.com/oauth2/authorize",
            }
            for name in ("ebay.app", "ebay.user")
        },
    }


ENDPOINTS = {"production": _endpoints(sandbox=False), "sandbox": _endpoints(sandbox=True)}


def environment_of(data: dict[str, Any] | ConfigView) -> str:
    """The environment a config document asks for (``auto`` when it says nothing):
    ``ebay.environment``, else the older ``ebay.emulator``."""
    view = data if isinstance(data, ConfigView) else ConfigView(data)
    chosen = view.text("ebay.environment") if view.has("ebay.environment") else None
    if not chosen:
        legacy = (view.text("ebay.emulator") or "auto").strip().lower()
        chosen = LEGACY_EMULATOR_MODES.get(legacy)
        if chosen is None:
            raise ConfigError(f"config ebay.emulator is {legacy!r}: one of always, auto, off", path="ebay.emulator")
    return chosen.strip().lower()  # one of ENVIRONMENTS: the key's declared choices


def has_credentials(data: dict[str, Any]) -> bool:
    """Does the config carry real eBay credentials (a Trading token, an app id, an
    OAuth client id)? ``auto`` picks the emulator when it does not."""
    ebay = _object(_object(data).get("tables")).get("ebay")
    auth = _object(data.get("auth"))
    found = [
        _object(_object(ebay).get("trading")).get("eBayAuthToken"),
        _object(_object(ebay).get("finding")).get("appname"),
        *(_object(auth.get(name)).get("clientId") for name in ("ebay.app", "ebay.user")),
    ]
    return any(isinstance(v, str) and v.strip() for v in found)


def _object(value: Any) -> dict[str, Any]:
    """``value`` if it is an object, else an empty one: a malformed section holds no
    credentials (what is wrong with it is said where it is used)."""
    return value if isinstance(value, dict) else {}


def resolved_environment(data: dict[str, Any]) -> str:
    """``auto`` resolved: ``emulator`` without credentials, else ``production``."""
    chosen = environment_of(data)
    if chosen == "auto":
        return "production" if has_credentials(data) else "emulator"
    return chosen


def fill(data: dict[str, Any], defaults: dict[str, Any]) -> dict[str, Any]:
    """``data`` with every key of ``defaults`` it lacks, or holds empty, filled in.
    Only objects the config already has are filled under ``auth`` (an environment
    does not invent credentials)."""
    out = copy.deepcopy(data)
    for key, value in defaults.items():
        current = out.get(key)
        if isinstance(value, dict):
            if key == "auth":
                entries = current if isinstance(current, dict) else {}
                out[key] = {
                    name: fill(entry, value.get(name, {})) if isinstance(entry, dict) else entry
                    for name, entry in entries.items()
                }
                if not entries:
                    out.pop(key, None)
            elif current is None or isinstance(current, dict):
                out[key] = fill(current or {}, value)
        elif current is None or current == "":
            out[key] = value
    return out


def with_endpoints(data: dict[str, Any], environment: str) -> dict[str, Any]:
    """The config document with ``environment``'s endpoints filled in (``production``
    or ``sandbox``; the emulator's come from the running emulator)."""
    if environment not in ENDPOINTS:
        raise ConfigError(f"no fixed endpoints for eBay environment {environment!r}")
    return fill(data, ENDPOINTS[environment])
