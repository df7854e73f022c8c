"""Where the emulator's services live and the config that points eBay's tables at
an emulator at a base URL: the standard library only, so a deployment can be
configured for the emulator (``qlgate run``) without building or importing it
(``lazy.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SEED = Path(__file__).with_name("seed.json")
FINDING_PATH = "/services/search/FindingService/v1"
SHOPPING_PATH = "/shopping"
TRADING_PATH = "/ws/api.dll"
TOKEN_PATH = "/identity/v1/oauth2/token"
AUTHORIZE_PATH = "/oauth2/authorize"
DEFAULT_SCOPE = "https://api.ebay.com/oauth/api_scope"


def emulator_config(base: str) -> dict[str, Any]:
    """The config that points every eBay table at an emulator at ``base``, with
    credentials it accepts."""
    return {
        "tables": {
            "ebay": {
                "finding": {"gateway": f"{base}{FINDING_PATH}", "appname": "TEST-APPNAME"},
                "shopping": {"gateway": f"{base}{SHOPPING_PATH}", "appid": "TEST-APPID", "version": 765, "siteid": "0"},
                "trading": {
                    "gateway": f"{base}{TRADING_PATH}",
                    "siteid": "0",
                    "version": "737",
                    "appname": "TEST-APPNAME",
                    "devname": "TEST-DEVNAME",
                    "certname": "TEST-CERTNAME",
                    "eBayAuthToken": "TEST-TOKEN",
                },
                "rest": {"hosts": dict.fromkeys(("api", "apiz", "apix", "apim"), base), "marketplace": "EBAY_US"},
            }
        },
        "auth": rest_auth_config(base),
    }


def rest_auth_config(base: str) -> dict[str, Any]:
    """Config ``auth`` entries for the emulator's OAuth2 server, with the seed's emulator-only
    credentials: ``ebay.app`` (application token) and ``ebay.user`` (the seed seller's)."""
    oauth = json.loads(SEED.read_text(encoding="utf-8")).get("oauth") or {}
    app, refresh = oauth["applications"][0], oauth["refreshTokens"][0]
    common = {
        "tokenUrl": f"{base}{TOKEN_PATH}",
        "clientId": app["clientId"],
        "clientSecret": app["clientSecret"],
    }
    return {
        "ebay.app": {"type": "oauth2-client-credentials", **common, "scopes": [DEFAULT_SCOPE]},
        "ebay.user": {
            "type": "oauth2-refresh-token",
            **common,
            "refreshToken": refresh["token"],
            "scopes": refresh["scopes"],
            "authorizeUrl": f"{base}{AUTHORIZE_PATH}",
            "redirectUri": app["ruName"],
        },
    }
