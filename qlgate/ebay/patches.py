"""The logic behind the eBay tables' shared patch modules, kept in the package
so it is tested like any other code and the patch files stay a few lines."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from ..values import MISSING
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
    return _check_ack(ctx.table.name, ctx.status, ctx.body)
