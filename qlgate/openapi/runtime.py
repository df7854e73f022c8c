"""What the tables generated from OpenAPI contracts share at run time.

Each generated directory has a small patch module (``<prefix>.py``, and
``tables/ebay/rest.py`` for eBay's REST tables) whose hooks call these, so the
logic is package code, typed and tested, and the tables stay declarative:

- ``patch_uri``: optional query parameters without a value are dropped (an API
  reads ``limit=`` as an invalid limit, not as no limit), and for an API that
  pages by page number the statement's ``offset`` becomes that page
  (``offset / limit + 1``; the table names the parameter with the alias
  ``page = '…'``).
- ``patch_headers``: an optional header without a value is not sent, and a
  required one (``{^x}`` in ``using headers``) without a value is a 400 naming
  its column, as a missing required URI parameter is.

Neither reads a parameter the table's templates do not name, and both say so
(``table_params_only``): a where name that none of a generated table's templates reads
is refused before anything is sent, with the name meant (``where qq = …``).
"""

from __future__ import annotations

from typing import Any

from ..errors import InvalidParameter
from ..lang.templates import Token
from ..tables.param_names import table_params_only


def _query_key(uri_template: Any, column: str) -> str | None:
    """The query parameter whose value is the token ``{column}`` in the table's URI."""
    before = ""
    for part in getattr(uri_template, "parts", ()):
        if isinstance(part, Token) and part.body.raw == column:
            head = before.rsplit("&", 1)[-1].rsplit("?", 1)[-1]
            return head[:-1] if head.endswith("=") else None
        before = part if isinstance(part, str) else ""
    return None


@table_params_only  # drops and pages what the URI has: a where name it lacks is a mistake
def patch_uri(ctx: Any) -> Any:
    uri = ctx.uri
    page = ctx.table.aliases.get("page")
    st = ctx.statement
    if page and st.limit and st.offset is not None and page not in ctx.params.statement_names():
        key = _query_key(ctx.table.uri, page)
        if key:
            uri.set_param(key, str(st.offset // st.limit + 1))
    uri.remove_empty_params()
    return uri


@table_params_only
def patch_headers(ctx: Any) -> dict[str, str]:
    headers: dict[str, str] = dict(ctx.headers)
    for name_t, value_t in ctx.table.headers:
        name = name_t.raw.lower()
        if headers.get(name) != "":
            continue
        required = [t.body.raw for t in value_t.tokens if t.required]
        if required:
            raise InvalidParameter(
                f"{ctx.table.name}: header {name_t.raw} needs a value: give the column {required[0]}",
                param=required[0],
            )
        del headers[name]
    return headers
