"""Golden files for request building: ``goldens/requests/NAME.ql`` (a table
definition, and in its leading comment the values a statement gives it) →
``NAME.http``, every request the call makes, exactly: method, URL, headers in the
order they are sent, body. Files the tables name (body templates, patches) sit in
``goldens/requests/files``.

The requests are built by ``RequestBuilder.build_all`` from the same pieces the
engine's table call sends (``engine/table_call.py``), with nothing sent.

Case header lines (JSON after the colon; all optional)::

    -- verb: insert                       which mapping: select (the default), insert, update, delete
    -- values: {"id": "7"}                the statement's parameters (where clause, columns)
    -- statement: {"limit": 5, "offset": 10}
    -- opaque: {"a": 1}                   the value of an insert without columns

Regenerate after an intended change, then read the diff::

    QLGATE_UPDATE_GOLDENS=1 python3 -m pytest tests/engine/test_goldens.py tests/tables/test_goldens.py
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from qlgate import __version__
from qlgate.http.client import HttpRequest
from qlgate.lang import ast
from qlgate.lang.parser import parse
from qlgate.tables.call import CallHooks, mapping_for
from qlgate.tables.files import CodeDirs
from qlgate.tables.model import compile_table
from qlgate.tables.request import Outgoing, RequestBuilder, call_params, param_view
from qlgate.values import MISSING
from tests.goldens import check_golden, orphans, read_input

REQUESTS = Path(__file__).parent / "goldens" / "requests"
COMMAND = "QLGATE_UPDATE_GOLDENS=1 python3 -m pytest tests/engine/test_goldens.py tests/tables/test_goldens.py"
CONFIG = {"base": "https://api.shop.test/v1", "site": "EBAY-DE", "appId": "app-123"}
OUTGOING = Outgoing(connection="keep-alive", request_id_header="request-id", request_id="golden-request-1")
_HEADER = re.compile(r"^--\s*(verb|values|statement|opaque):\s*(.+)$", re.M)


def case_inputs(text: str) -> dict[str, Any]:
    found = {key: value.strip() for key, value in _HEADER.findall(text)}
    return {
        "verb": found.get("verb", "select"),
        "values": json.loads(found.get("values", "{}")),
        "statement": json.loads(found.get("statement", "{}")),
        "opaque": json.loads(found["opaque"]) if "opaque" in found else MISSING,
    }


async def requests_of(case: Path) -> list[HttpRequest]:
    text = read_input(case)
    inputs = case_inputs(text)
    (create,) = [
        c
        for item in parse(text, origin=case.name).items
        if isinstance(item, ast.Line)
        for c in item.choices
        if isinstance(c, ast.CreateTable)
    ]
    table = compile_table(create, CONFIG, CodeDirs.of([REQUESTS]))
    mapping = mapping_for(table, inputs["verb"])
    limit, offset = inputs["statement"].get("limit"), inputs["statement"].get("offset")
    params = call_params(mapping, inputs["values"], limit=limit, offset=offset)
    hooks = CallHooks(table, mapping, None, limit=limit, offset=offset, config=CONFIG)
    builder = RequestBuilder(
        hooks, kind=inputs["verb"], params=params, timeout_ms=10_000, outgoing=OUTGOING, opaque=inputs["opaque"]
    )
    return await builder.build_all(param_view(mapping, params, {}, config=CONFIG))


def as_http(requests: list[HttpRequest]) -> str:
    """Requests as an HTTP client shows them, ``###`` between them. The version in
    the user agent is written ``{version}``, so a release changes no golden; a body
    that does not end in a line break is followed by a line saying so, as in a diff."""
    shown = []
    for request in requests:
        lines = [f"{request.method.upper()} {request.url}"]
        for name, value in request.headers.items():
            value = value.replace(__version__, "{version}")
            lines.append(f"{name}: {value}" if value else f"{name}:")
        text = "\n".join(lines) + "\n"
        if request.body is not None:
            body = request.body.decode("utf-8")
            text += "\n" + body + ("" if body.endswith("\n") else "\n\\ no line break at the end of the body\n")
        shown.append(text)
    return "###\n".join(shown)


@pytest.mark.parametrize("case", sorted(REQUESTS.glob("*.ql")), ids=lambda p: p.stem)
async def test_table_and_values_build_the_golden_requests(case: Path):
    check_golden(case.with_suffix(".http"), as_http(await requests_of(case)), COMMAND)


def test_every_golden_has_its_case_and_the_folder_is_found():
    assert orphans(REQUESTS, ".http", ".ql") == []
    assert len(list(REQUESTS.glob("*.ql"))) >= 10  # an empty parametrization would pass silently
