"""The committed eBay REST tables are exactly what ``qlgate.ebay.rest_generate``
writes from the REST digest, cover every operation, resolve by suffix without
making a legacy name ambiguous, read their hosts and marketplace from config, and
make the calls eBay documents (checked against a loopback upstream)."""

import json
from pathlib import Path

import pytest

from qlgate.ebay.rest_generate import generate
from qlgate.ebay.rest_status import EbayRestError
from qlgate.tables.registry import load_tables_dir
from tests.conftest import run

ROOT = Path(__file__).resolve().parents[2]
CATALOG = ROOT / "data" / "ebay" / "rest-catalog.json"  # committed: these tests run in every clone
REST_DIRS = ("buy", "commerce", "developer", "sell")
HOSTS = {h: f"http://{h}.test" for h in ("api", "apiz", "apix", "apim")}


def test_committed_rest_tables_are_up_to_date():
    files = generate(json.loads(CATALOG.read_text()))
    root = ROOT / "tables" / "ebay"
    stale = [rel for rel, text in files.items() if not (root / rel).exists() or (root / rel).read_text() != text]
    extra = [
        str(p.relative_to(root))
        for d in REST_DIRS
        for p in sorted((root / d).rglob("*"))
        if p.is_file() and str(p.relative_to(root)) not in files
    ]
    command = "run: python -m qlgate.ebay.rest_generate --catalog data/ebay/rest-catalog.json --out tables/ebay"
    assert stale == [] and extra == [], f"{command} (stale: {stale[:5]}, not generated: {extra[:5]})"


def test_every_operation_has_a_table_with_its_verb_host_and_credential():
    catalog = json.loads(CATALOG.read_text())
    registry, problems = load_tables_dir(ROOT / "tables", {"tables": {"ebay": {"rest": {"hosts": HOSTS}}}})
    assert problems == []
    verbs = {"GET": "select", "POST": "insert", "PUT": "update", "DELETE": "delete", "PATCH": "update"}
    count = 0
    for api in catalog["apis"]:
        for op in api["operations"]:
            table = registry.get(f"ebay.{api['api']}.{op['operationId']}")
            mapping = table.mappings[verbs[op["method"]]]
            assert mapping.uri.raw.startswith(tuple(HOSTS.values())), table.name
            assert mapping.credential in ("ebay.app", "ebay.user"), table.name
            count += 1
    assert count == 328


def test_suffixes_resolve_and_legacy_names_stay_unambiguous():
    registry, _ = load_tables_dir(ROOT / "tables", {})
    expect = {
        "browse.search": "ebay.buy.browse.search",
        "taxonomy.getCategorySuggestions": "ebay.commerce.taxonomy.getCategorySuggestions",
        "inventory.createOffer": "ebay.sell.inventory.createOffer",
        "fulfillment.getOrders": "ebay.sell.fulfillment.getOrders",
        "getOrders": "ebay.sell.fulfillment.getOrders",
        "GetOrders": "ebay.trading.GetOrders",
        "trading.GetOrders": "ebay.trading.GetOrders",
        "trading.AddToWatchList": "ebay.trading.AddToWatchList",
        "finding.findItemsByKeywords": "ebay.finding.findItemsByKeywords",
        "account.v2.getRateTable": "ebay.sell.account.v2.getRateTable",
    }
    for suffix, name in expect.items():
        assert registry.get(suffix).name == name
    legacy = [n for n in registry.names() if n.split(".")[1] in ("finding", "shopping", "trading")]
    for name in legacy:
        parts = name.split(".")
        for i in range(1, len(parts)):
            assert registry.find(".".join(parts[i:])) is not None  # never AmbiguousTable


def test_credentials_follow_the_token_grant():
    registry, _ = load_tables_dir(ROOT / "tables", {})
    assert registry.get("browse.search").mappings["select"].credential == "ebay.app"
    assert registry.get("taxonomy.getCategorySuggestions").mappings["select"].credential == "ebay.app"
    assert registry.get("inventory.createOffer").mappings["insert"].credential == "ebay.user"
    assert registry.get("fulfillment.getOrders").mappings["select"].credential == "ebay.user"


@pytest.fixture
async def rest_engine(upstream):
    """An engine over the committed tables whose eBay REST hosts and token URL are the upstream."""
    from qlgate.engine.engine import Engine

    config = {
        "tables": {"ebay": {"rest": {"hosts": dict.fromkeys(HOSTS, upstream.base), "marketplace": "EBAY_US"}}},
        "auth": {
            name: {
                "type": "oauth2-client-credentials",
                "tokenUrl": upstream.base + "/token",
                "clientId": "c",
                "clientSecret": "s",
                "scopes": ["https://api.ebay.com/oauth/api_scope"],
            }
            for name in ("ebay.app", "ebay.user")
        },
    }
    upstream.reply("POST", "/token", json_body={"access_token": "t-1", "expires_in": 7200, "token_type": "Bearer"})
    engine = Engine(tables=ROOT / "tables", config=config)
    yield engine
    await engine.close()


async def test_browse_search_sends_marketplace_paging_and_token(rest_engine, upstream):
    upstream.reply(
        "GET",
        "/buy/browse/v1/item_summary/search",
        json_body={
            "total": 2,
            "itemSummaries": [{"itemId": "v1|1|0", "title": "A"}, {"itemId": "v1|2|0", "title": "B"}],
            "warnings": [{"errorId": 12001, "message": "a warning"}],
        },
    )
    value = await run(rest_engine, 'return select itemId from browse.search where q = "camera" limit 2 offset 4;')
    assert value == ["v1|1|0", "v1|2|0"]  # warnings[] on a 200 stay a success
    value = await run(
        rest_engine, 'return select title from browse.search where q = "camera" and marketplace = "EBAY_GB";'
    )
    assert value == ["A", "B"]
    searches = [r for r in upstream.requests if r.path.endswith("/search")]
    assert searches[0].query == {"q": "camera", "limit": "2", "offset": "4"}
    assert searches[0].headers["x-ebay-c-marketplace-id"] == "EBAY_US"
    assert searches[0].headers["authorization"] == "Bearer t-1"
    assert "accept-language" not in searches[0].headers and "x-ebay-c-enduserctx" not in searches[0].headers
    assert searches[1].headers["x-ebay-c-marketplace-id"] == "EBAY_GB"


async def test_create_offer_body_and_an_error_answer_is_a_typed_error(rest_engine, upstream):
    errors = {
        "errors": [
            {
                "errorId": 25002,
                "domain": "API_INVENTORY",
                "category": "REQUEST",
                "message": "A user error has occurred.",
                "parameters": [{"name": "text1", "value": "sku"}],
            }
        ]
    }
    upstream.reply("POST", "/sell/inventory/v1/offer", json_body=errors, status=400)
    with pytest.raises(EbayRestError) as caught:
        await run(
            rest_engine,
            "return insert into inventory.createOffer (sku, availableQuantity, pricingSummary.price.value, "
            'pricingSummary.price.currency) values ("S-1", "3", "9.99", "USD");',
        )
    error = caught.value
    assert error.status == 400 and error.details["upstream_status"] == 400
    assert error.details["errorId"] == 25002 and "25002" in error.message and "A user error" in error.message
    (sent,) = [r for r in upstream.requests if r.path.endswith("/offer")]
    assert json.loads(sent.body) == {
        "availableQuantity": 3,
        "pricingSummary": {"price": {"currency": "USD", "value": "9.99"}},
        "sku": "S-1",
    }
    assert sent.headers["content-type"] == "application/json" and sent.headers["content-language"] == "en-US"
