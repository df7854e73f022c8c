"""Generate the eBay REST tables from the REST digest.

    python -m qlgate.ebay.rest_generate --catalog data/ebay/rest-catalog.json --out tables/ebay

The digest (``rest-catalog.json``: 31 APIs, 328 operations of eBay's published
OpenAPI contracts, facts only) is read into the operation model of
``qlgate.openapi`` and written by the same writer as ``qlgate import openapi``:
one table per operation, ``ebay.<api>.<operationId>`` in
``tables/ebay/<api path>/<operationId>.ql`` (``ebay.buy.browse.search`` in
``tables/ebay/buy/browse/search.ql``), a JSON body template beside each one
that takes a body, all sharing the patch ``tables/ebay/rest.py``. What is
eBay's own, and decided here:

- the host: one config key per eBay host, ``{config.tables.ebay.rest.hosts.api}``
  (``apiz``, ``apix``, ``apim``), then the API's base path — production, eBay's
  sandbox and the emulator are one config change (``qlgate/ebay/environments.py``);
- the credential: ``using auth 'ebay.app'`` (client credentials) or ``'ebay.user'``
  (a user's authorization code); an operation allowed both uses ``ebay.app`` when
  all its scopes are in the client-credentials flow;
- the headers: ``X-EBAY-C-MARKETPLACE-ID`` is the column ``marketplace``, default
  config ``tables.ebay.rest.marketplace``; ``X-EBAY-C-ENDUSERCTX`` is
  ``endUserCtx``, ``Content-Language`` is ``contentLanguage`` (default ``en-US``);
  ``Content-Type`` is set from the body.

The output is committed; ``tests/ebay/test_rest_generate.py`` fails when it is stale.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..openapi.model import OWN_HEADERS, Body, Operation, Param, header_column, identifier
from ..openapi.writer import Target, body_template, table_text
from .rest_examples import EXAMPLES

HEADER_COLUMNS = {
    "x-ebay-c-marketplace-id": "marketplace",
    "x-ebay-c-enduserctx": "endUserCtx",
    "content-language": "contentLanguage",
    "accept-language": "acceptLanguage",
}
HEADER_DEFAULTS = {
    "marketplace": "{config.tables.ebay.rest.marketplace}",
    "contentLanguage": "en-US",
}
HOSTS = ("api", "apiz", "apix", "apim")


def base_of(url: str) -> str:
    """``https://apiz.ebay.com/sell/finances/v1`` → the host's config key + the path."""
    parts = urlsplit(url)
    host = parts.hostname.split(".", 1)[0] if parts.hostname else "api"
    if host not in HOSTS:
        raise ValueError(f"unknown eBay host in {url}")
    return "{config.tables.ebay.rest.hosts." + host + "}" + parts.path.rstrip("/")


def credential(op: dict[str, Any], api: dict[str, Any]) -> str:
    grants = str(op.get("token_grant") or "").split("|")
    if "client_credentials" in grants and "authorization_code" not in grants:
        return "ebay.app"
    if "client_credentials" in grants:
        client = set((api.get("oauth_flows") or {}).get("clientCredentials", {}).get("scopes") or ())
        if set(op.get("scopes") or ()) <= client:
            return "ebay.app"
    return "ebay.user"


def params_of(op: dict[str, Any]) -> tuple[list[Param], list[tuple[str, str]]]:
    """The columns, and the constant headers (``Content-Type``)."""
    params: list[Param] = []
    constants: list[tuple[str, str]] = []
    used: set[str] = set()
    body = op.get("request_body") or {}
    for p in op.get("params") or ():
        name, where = str(p["name"]), str(p["in"])
        lower = name.lower()
        if where == "header":
            if lower == "content-type":
                media = str(body.get("content_type") or "application/json")
                if not media.startswith("multipart/"):
                    constants.append(("Content-Type", media))
                continue
            if lower in OWN_HEADERS or any(c.lower() == lower for c in (q.name for q in params)):
                continue
            column = HEADER_COLUMNS.get(lower) or header_column(name)
        else:
            column = identifier(name, "param")
        if column in used:
            column += where.capitalize()
        used.add(column)
        required = bool(p.get("required")) or where == "path"
        default = HEADER_DEFAULTS.get(column) if where == "header" else None
        params.append(Param(name, where, required and default is None, column, "string", default))
    return params, constants


def operation(op: dict[str, Any], api: dict[str, Any]) -> Operation:
    params, constants = params_of(op)
    raw_body = op.get("request_body")
    body = None
    if raw_body:
        body = Body(str(raw_body.get("content_type") or "application/json"), raw_body.get("schema") or {})
    response = op.get("response") or {}
    notes = ["An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py)."]
    return Operation(
        operation_id=str(op["operationId"]),
        method=str(op["method"]).lower(),
        path=str(op["path"]),
        summary=str(op.get("summary") or ""),
        params=tuple(params),
        body=body,
        response=response.get("schema"),
        response_type=response.get("content_type"),
        auth=credential(op, api),
        scopes=tuple(op.get("scopes") or ()),
        deprecated=bool(op.get("deprecated")),
        headers=tuple(constants),
        notes=tuple(notes),
    )


def generate(catalog: dict[str, Any]) -> dict[str, str]:
    """Relative path (under tables/ebay) → file text, for every REST table."""
    files: dict[str, str] = {}
    for api in catalog["apis"]:
        parts = str(api["api"]).split(".")
        folder = "/".join(parts)
        patch = "../" * len(parts) + "rest.py"
        for raw in api["operations"]:
            op = operation(raw, api)
            name = f"ebay.{api['api']}.{op.operation_id}"
            url = (raw.get("base_url") or api["base_url"])["production"]
            target = Target(name, op.operation_id, base_of(url), patch, EXAMPLES.get(name))
            files[f"{folder}/{op.operation_id}.ql"] = table_text(op, target)
            template = body_template(op, target)
            if template is not None:
                files[f"{folder}/{op.operation_id}.j2"] = template
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--catalog", default="data/ebay/rest-catalog.json")
    parser.add_argument("--out", default="tables/ebay")
    args = parser.parse_args(argv)
    files = generate(json.loads(Path(args.catalog).read_text(encoding="utf-8")))
    out = Path(args.out)
    for rel, text in files.items():
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    print(f"wrote {len(files)} files under {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
