"""What ql.io's JavaScript costs per call in qlgate's sandbox (issue 30), beside
what qlgate's own forms of the same work cost:

- a body: ql.io's EJS Trading ``AddItem`` (443 lines, helper functions) and its
  Finding ``findItemsByKeywords``, beside a Jinja2 port of the latter written here;
- a ``patch uri``: ql.io's ``findItemsByKeywords.js``, beside the same hook in Python
  on qlgate's ``MutableURI``.

Each JavaScript figure is given twice: the call itself on the sandbox's thread, and
as a statement pays it, awaited from the event loop (the hop to the JS thread and
back). Needs ql.io's tree beside the clone (``../shared/qlio-ebay-mp-apis``).

    python3 bench/qlio_js.py [CALLS]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

TREE = Path(__file__).resolve().parents[1] / "../shared/qlio-ebay-mp-apis/tables"

ADD_ITEM = {
    "Item.Title": "Harry Potter & the <Philosopher's> Stone",
    "Item.Description": "A first edition, good condition",
    "Item.PrimaryCategory.CategoryID": "377",
    "Item.StartPrice": "9.99",
    "Item.Country": "US",
    "Item.Currency": "USD",
    "Item.ListingDuration": "Days_7",
    "Item.ListingType": "FixedPriceItem",
    "Item.Location": "San Jose, CA",
    "Item.Quantity": "1",
    "Item.PaymentMethods": "PayPal",
    "Item.PayPalEmailAddress": "seller@example.com",
    "config": {"tables": {"ebay": {"trading": {"eBayAuthToken": "TOKEN"}}}},
}
FIND = {"keywords": "ipad <2> & co", "paginationInput.entriesPerPage": 3, "sortOrder": "BestMatch", "config": {}}

JINJA_FIND = """{%- macro ins(k, v) %}{% if v %}<{{ k }}>{{ v }}</{{ k }}>{% endif %}{% endmacro -%}
<findItemsByKeywordsRequest xmlns="http://www.ebay.com/marketplace/search/v1/services">
{%- set p = params %}
{%- if p['paginationInput.entriesPerPage'] or p['paginationInput.pageNumber'] %}<paginationInput>
{{- ins('entriesPerPage', p['paginationInput.entriesPerPage']) }}{{ ins('pageNumber', p['paginationInput.pageNumber']) -}}
</paginationInput>{% endif %}
{{- ins('buyerPostalCode', p.buyerPostalCode) }}{{ ins('sortOrder', p.sortOrder) }}{{ ins('keywords', p.keywords) -}}
{{ ins('outputSelector', p.outputSelector) }}
</findItemsByKeywordsRequest>"""


def py_patch_uri(ctx: Any) -> Any:
    """findItemsByKeywords.js's ``patch uri``, in Python."""
    uri, statement, params = ctx.uri, ctx.statement, ctx.params
    if statement.offset and statement.limit:
        uri.set_param("paginationInput.pageNumber", statement.offset / statement.limit)
    uri.remove_empty_params()
    count = 0
    for name in ("FreeShippingOnly", "MinPrice", "BestOfferOnly", "ListingType"):
        if params.get(name):
            uri.add_param(f"itemFilter({count}).name", name)
            uri.add_param(f"itemFilter({count}).value", params[name])
            count += 1
    return uri


def per_call_us(fn: Callable[[], Any], calls: int) -> float:
    fn()
    times = []
    for _ in range(5):
        started = time.perf_counter()
        for _ in range(calls):
            fn()
        times.append((time.perf_counter() - started) / calls * 1e6)
    return statistics.median(times)


async def awaited_us(fn: Callable[[], Any], calls: int) -> float:
    await fn()
    started = time.perf_counter()
    for _ in range(calls):
        await fn()
    return (time.perf_counter() - started) / calls * 1e6


def main() -> None:
    from types import SimpleNamespace

    import jinja2.sandbox

    from qlgate.js.ejs import EjsTemplate
    from qlgate.js.modules import JsModule
    from qlgate.tables.patches import MutableURI

    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    if not TREE.is_dir():
        sys.exit(f"ql.io's tree is not at {TREE}")
    rows: list[tuple[str, float]] = []

    add_item = EjsTemplate((TREE / "trading/AddItem.ejs").read_text(), "AddItem.ejs", "application/xml")
    find = EjsTemplate(
        (TREE / "finding/findItemsByKeywords.ejs").read_text(), "findItemsByKeywords.ejs", "application/xml"
    )
    for name, template, params in (
        ("EJS AddItem body", add_item, ADD_ITEM),
        ("EJS findItemsByKeywords body", find, FIND),
    ):
        data = {"params": params, "statement": {}, "config": {}}
        from qlgate.js.sandbox import payload

        text = payload(data)
        rows.append(
            (
                f"{name} (call on the JS thread)",
                per_call_us(lambda t=template, x=text: t.sandbox._run((x, 0.0), 0), calls),
            )
        )
        rows.append(
            (
                f"{name} (awaited from the loop)",
                asyncio.run(awaited_us(lambda t=template, d=data: t.render(d, 0), calls)),
            )
        )
    jinja = jinja2.sandbox.SandboxedEnvironment(autoescape=True).from_string(JINJA_FIND)
    rows.append(("Jinja2 port of findItemsByKeywords body", per_call_us(lambda: jinja.render(params=FIND), calls)))

    module = JsModule((TREE / "finding/findItemsByKeywords.js").resolve(), (TREE.resolve(),))
    uri = "http://svcs.example/services?OPERATION-NAME=findItemsByKeywords&keywords=ipad&empty="
    options = {
        "uri": uri,
        "statement": {"limit": 10, "offset": 20},
        "params": {"MinPrice": "5", "ListingType": "Auction"},
    }
    from qlgate.js.sandbox import payload as as_payload

    sent = as_payload({"options": options, "name": None, "value": None})
    rows.append(
        (
            "JS patch uri (call on the JS thread)",
            per_call_us(lambda: module.sandbox._run(("patch uri", sent, 0.0, 2), 0), calls),
        )
    )
    rows.append(
        (
            "JS patch uri (awaited from the loop)",
            asyncio.run(awaited_us(lambda: module.call("patch uri", options, 0), calls)),
        )
    )

    def python_patch() -> Any:
        ctx = SimpleNamespace(
            uri=MutableURI(uri),
            statement=SimpleNamespace(limit=10, offset=20),
            params={"MinPrice": "5", "ListingType": "Auction"},
        )
        return py_patch_uri(ctx).format()

    rows.append(("Python patch uri (the same hook)", per_call_us(python_patch, calls)))
    for name, value in rows:
        print(f"{name:52} {value:9.1f} µs")


if __name__ == "__main__":
    main()
