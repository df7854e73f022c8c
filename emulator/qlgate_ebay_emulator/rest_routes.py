"""The route table of eBay's REST APIs the emulator answers: every operation of the
digest of eBay's OpenAPI contracts (``data/ebay/rest-catalog.json`` in the repository, outside the
package), reduced to what serving it needs — API, operationId, method, full path, host
(api / apiz / apix / apim), scopes, token grant and the API's error domain — and
committed as ``rest_routes.json``. Regenerate it when the digest changes
(``tests/sandbox/test_rest.py`` fails while it is stale)::

    python3 -m qlgate_ebay_emulator.rest_routes data/ebay/rest-catalog.json
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROUTES = Path(__file__).with_name("rest_routes.json")
DIGEST = Path(__file__).resolve().parents[2] / "data" / "ebay" / "rest-catalog.json"  # in a repository checkout
_PARAM = re.compile(r"\{([^}/]+)\}")


@dataclass(frozen=True)
class Route:
    api: str  # buy.browse
    operation: str  # search
    method: str
    path: str  # /buy/browse/v1/item_summary/search
    host: str  # api | apiz | apix | apim
    scopes: tuple[str, ...]  # any one of them will do
    grant: str  # client_credentials | authorization_code | client_credentials|authorization_code
    domain: str  # API_BROWSE: the error domain of the API

    @property
    def user_token(self) -> bool:
        """Only a user token (authorization code or refresh) may call it."""
        return "client_credentials" not in self.grant.split("|")

    @property
    def call(self) -> str:
        return f"{self.api}.{self.operation}"


def build(digest: dict[str, Any]) -> list[dict[str, Any]]:
    """The route table of a digest, as committed."""
    out = []
    for api in digest["apis"]:
        for op in api["operations"]:
            base = urlsplit(op.get("op_base_url") or api["base_url"]["production"])
            domains = [e[1] for e in op.get("errors") or [] if len(e) > 1]
            domain = domains[0] if domains else "API_" + api["api"].split(".")[1].upper()
            out.append(
                {
                    "api": api["api"],
                    "operationId": op["operationId"],
                    "method": op["method"].upper(),
                    "path": base.path.rstrip("/") + "/" + op["path"].lstrip("/"),
                    "host": (base.hostname or "api").split(".")[0],
                    "scopes": op.get("scopes") or [],
                    "grant": op.get("token_grant") or "client_credentials",
                    "domain": domain,
                }
            )
    return out


def render(routes: list[dict[str, Any]]) -> str:
    return "[\n" + ",\n".join(json.dumps(r, separators=(",", ":")) for r in routes) + "\n]\n"


class Table:
    """Routes by method, most specific first: fixed segments win over ``{params}``."""

    def __init__(self, routes: list[Route]):
        self.routes = routes
        self._compiled: list[tuple[re.Pattern[str], Route]] = []
        for route in sorted(routes, key=lambda r: (len(_PARAM.findall(r.path)), -len(r.path))):
            parts = _PARAM.split(route.path.rstrip("/"))  # literal, name, literal, name, …
            pattern = "".join(re.escape(p) if n % 2 == 0 else f"(?P<{_group(p)}>[^/]+)" for n, p in enumerate(parts))
            self._compiled.append((re.compile(pattern + "/?"), route))

    def match(self, method: str, path: str) -> tuple[Route | None, dict[str, str], bool]:
        """(route, path parameters, whether the path exists for some other method)."""
        other = False
        for pattern, route in self._compiled:
            found = pattern.fullmatch(path)
            if found:
                if route.method == method:
                    names = _PARAM.findall(route.path)
                    return route, {n: found.group(_group(n)) for n in names}, False
                other = True
        return None, {}, other


def _group(name: str) -> str:
    return "p_" + re.sub(r"\W", "_", name)


@cache
def table() -> Table:
    rows = json.loads(ROUTES.read_text(encoding="utf-8"))
    return Table(
        [
            Route(
                r["api"],
                r["operationId"],
                r["method"],
                r["path"],
                r["host"],
                tuple(r["scopes"]),
                r["grant"],
                r["domain"],
            )
            for r in rows
        ]
    )


def main(argv: list[str]) -> int:
    source = Path(argv[0]) if argv else DIGEST
    ROUTES.write_text(render(build(json.loads(source.read_text(encoding="utf-8")))), encoding="utf-8")
    print(f"wrote {ROUTES} from {source}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
