"""The logic behind the eBay tables' shared patch modules, kept in the package
so it is tested like any other code and the patch files stay a few lines."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from ..values import MISSING, to_text
from .requests import Schemas, request_xml, unknown_columns
from .status import check_ack as _check_ack

log = logging.getLogger("qlgate.ebay")

# statement parameters that are not request fields and never warrant a warning
NOT_FIELDS = {"limit", "offset", "format", "apikey", "eBayAuthToken"}


class Service:
    """One service's request schemas and the body they produce."""

    def __init__(self, schema_file: str | Path):
        self.schemas = Schemas.load(schema_file)

    def body(self, ctx: Any) -> dict[str, str] | None:
        opaque = getattr(ctx.body, "opaque", None) if getattr(ctx, "body", None) is not None else None
        if opaque is not None:
            return opaque_body(ctx, opaque)
        call = ctx.table.name.rsplit(".", 1)[-1]
        schema = self.schemas.calls.get(call)
        if schema is None:
            return None
        params = ctx.params
        # ql.io named the token column eBayAuthToken in some tables: accept it as well
        token = params.lookup("eBayAuthToken")
        if token is not MISSING and "RequesterCredentials.eBayAuthToken" not in params.statement:
            params["RequesterCredentials.eBayAuthToken"] = token
        unknown = unknown_columns(schema, params.statement_names(), NOT_FIELDS | set(ctx.table.aliases.values()))
        if unknown:
            ctx.log(
                "warn",
                f"{ctx.table.name}: {', '.join(unknown)} "
                f"{'is not a field' if len(unknown) == 1 else 'are not fields'} of {call}; ignored",
            )
        return {"type": "application/xml", "content": request_xml(schema, params)}


# ------------------------------------------------------------------ credentials of opaque bodies

_PROLOG = re.compile(r"\s*(?:<\?.*?\?>\s*|<!--.*?-->\s*|<!DOCTYPE[^>]*>\s*)*", re.S)
_ROOT_TAG = re.compile(r"<[A-Za-z_][\w.:-]*(?:\s+[^<>]*?)?>")
_CREDENTIALS = re.compile(r"<(?:[\w.-]+:)?RequesterCredentials[\s/>]")


def with_credentials(xml: str, token: str) -> str:
    """``xml`` with ``<RequesterCredentials><eBayAuthToken>token</eBayAuthToken></RequesterCredentials>``
    right after the root start tag; unchanged when it has credentials of its own (a
    token, or Username and Password), no root element, or an empty root."""
    if _CREDENTIALS.search(xml):
        return xml
    start = _PROLOG.match(xml)
    at = start.end() if start else 0
    root = _ROOT_TAG.match(xml, at)
    if root is None or root.group(0).endswith("/>"):
        return xml
    credentials = f"<RequesterCredentials><eBayAuthToken>{escape(token)}</eBayAuthToken></RequesterCredentials>"
    return xml[: root.end()] + credentials + xml[root.end() :]


def _configured(ctx: Any, name: str) -> str | None:
    value = ctx.params.lookup(name)
    return None if value is MISSING or value in (None, "") else to_text(value)


def oauth_credential(ctx: Any) -> str | None:
    """The config ``auth`` entry Trading calls are authorised with
    (``tables.ebay.trading.auth``, e.g. ``"ebay.user"``), or None for an Auth'n'Auth
    token in the body."""
    value: Any = getattr(ctx, "config", None) or {}
    for key in ("tables", "ebay", "trading", "auth"):
        value = value.get(key) if isinstance(value, Mapping) else None
    return to_text(value) if isinstance(value, str) and value.strip() else None


def own_credentials(ctx: Any) -> bool:
    """Does the request bring credentials of its own: an opaque body with
    ``RequesterCredentials`` (a token, or Username and Password), or the statement's
    ``RequesterCredentials.…`` / ``eBayAuthToken`` columns? Then it runs as whoever those
    name, and must not also carry the configured user's IAF token, which eBay prefers."""
    opaque = getattr(ctx, "opaque", None)
    if isinstance(opaque, str) and _CREDENTIALS.search(opaque):
        return True
    params = getattr(ctx, "params", None)
    names = params.statement_names() if params is not None else ()
    return any(n == "eBayAuthToken" or n.split(".", 1)[0] == "RequesterCredentials" for n in names)


async def iaf_headers(ctx: Any) -> dict[str, str] | None:
    """``patch_headers``: with an OAuth credential configured, the request's headers plus
    ``X-EBAY-API-IAF-TOKEN`` carrying its user access token (eBay takes an OAuth token
    there for Trading calls) — unless the request brings credentials of its own
    (``own_credentials``). A token eBay refuses is renewed and the call sent again once,
    as for tables with ``using auth``."""
    name = oauth_credential(ctx)
    if name is None or own_credentials(ctx):
        return None
    return {**ctx.headers, "x-ebay-api-iaf-token": await ctx.access_token(name)}


def opaque_body(ctx: Any, opaque: str) -> dict[str, str] | None:
    """An opaque Trading body (``insert into … values ('<…Request>…')``) goes out byte for
    byte when it carries credentials; without them it is authorised with the configured
    token (the table's ``eBayAuthToken``), inserted as ``RequesterCredentials`` after the
    root start tag. With an OAuth credential (``oauth_credential``) the body stays as it
    is and the token travels in the IAF header."""
    if oauth_credential(ctx) is not None:
        return None
    token = _configured(ctx, "RequesterCredentials.eBayAuthToken")
    if token is None:
        return None
    amended = with_credentials(opaque, token)
    return None if amended == opaque else {"opaque": amended}


def strip_trailing_question_mark(uri: Any) -> str:
    """ql.io shipped gateways ending in '?'; the request goes out without it."""
    text = str(uri)
    return text[:-1] if text.endswith("?") else text


def page_from_offset(ctx: Any) -> None:
    """Finding pages: pageNumber = offset / limit + 1 (entriesPerPage is the limit alias)."""
    st = ctx.statement
    if st.limit and st.offset is not None and "paginationInput.pageNumber" not in ctx.params.statement:
        ctx.params["paginationInput.pageNumber"] = st.offset // st.limit + 1


def check_ack(ctx: Any) -> int | None:
    """``patch_status``: Ack=Failure is a statement error; with an OAuth credential
    configured for Trading, one saying the token was refused renews it (the engine sends
    the call again only when the request did carry that credential's token)."""
    return _check_ack(ctx.table.name, ctx.status, ctx.body, oauth_token=oauth_credential(ctx) is not None)
