"""The three scenarios of the 2012 post "ql.io APIs for eBay Marketplaces", in both
published versions (scripts/ebay/blog-2012*/), run as written against the
emulator: through the engine (what the gateway runs), asserting what changed in
the marketplace and what went over the wire, and through ``qlgate run``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from qlgate.engine.engine import Engine

ROOT = Path(__file__).resolve().parents[2]
VERSIONS = ["blog-2012", "blog-2012-republished"]


def script(version: str, name: str) -> str:
    return next((ROOT / "scripts" / "ebay" / version).glob(f"{name}*.ql")).read_text()


@pytest.fixture
async def gateway(emulator):
    async with Engine(tables=ROOT / "tables", routes=ROOT / "routes", config=emulator.config()) as engine:
        yield engine


@pytest.mark.parametrize("version", VERSIONS)
async def test_scenario_1_camera_watched_then_unwatched(version, gateway, emulator):
    market = emulator.sandbox.market
    text = script(version, "scenario1")
    assert "where keywords = 'camera';" in text and '("{itemid}")' in text
    result = (await gateway.execute(text)).value
    _search, add, remove = emulator.sandbox.requests
    assert (add.call, remove.call) == ("AddToWatchList", "RemoveFromWatchList")
    item_id = add.body.split("<ItemID>")[1].split("<")[0]
    assert "camera" in market.items[item_id].title.lower()
    assert f"<ItemID>{item_id}</ItemID>" in remove.body
    assert result["Ack"] == "Success" and result["WatchListCount"] == 0
    buyer = market.user_for_token("TEST-TOKEN")
    assert buyer is not None and item_id not in buyer.watch


@pytest.mark.parametrize("version", VERSIONS)
async def test_scenario_1_the_watch_count_goes_up_then_down(version, gateway, emulator):
    first_two = script(version, "scenario1").split("return delete")[0]
    value = (await gateway.execute(first_two + 'return "{itemid}";')).value
    item_id = str(value[0] if isinstance(value, list) else value)  # the one-column projection: [id]
    buyer = emulator.sandbox.market.user_for_token("TEST-TOKEN")
    assert buyer is not None and buyer.watch == [item_id]  # watched between the insert and the delete
    delete = "return delete" + script(version, "scenario1").split("return delete")[1]
    await gateway.execute(delete.replace("{itemid}", item_id))
    assert buyer.watch == []


@pytest.mark.parametrize("version", VERSIONS)
async def test_scenario_2_item_listed_then_bid_on(version, gateway, emulator):
    market = emulator.sandbox.market
    text = script(version, "scenario2")
    with_credentials = "<Username>ql.io-test1</Username>" in text
    assert with_credentials == (version == "blog-2012")
    await gateway.execute(text)
    add, offer = emulator.sandbox.requests
    opaque = text.split("values ('", 1)[1].split("');", 1)[0]
    if with_credentials:
        assert add.body == opaque  # its own credentials: sent byte for byte
    else:
        assert add.body != opaque and "<RequesterCredentials>" not in opaque
        assert add.body.count("<eBayAuthToken>TEST-TOKEN</eBayAuthToken>") == 1
        assert (
            add.body.replace(
                "<RequesterCredentials><eBayAuthToken>TEST-TOKEN</eBayAuthToken></RequesterCredentials>", ""
            )
            == opaque
        )
    listed = next(i for i in market.items.values() if i.title == "Harry Potter and the Philosophers Stone")
    assert listed.listing_type == "Chinese" and listed.active
    if with_credentials:  # listed by ql.io-test1, bid on by the configured buyer
        assert listed.seller == "ql.io-test1"
        bid_on = listed
    else:  # listed by the configured user; the bid goes to the post's sample auction
        assert listed.seller == "testuser_bountifulbuyer" and listed.bid_count == 0
        bid_on = market.items["290006316857"]
        assert bid_on.seller == "ql.io-test1"
    assert (bid_on.price, bid_on.bid_count, bid_on.minimum_to_bid) == (1.0, 1, 1.25)
    assert bid_on.high_bidder == "testuser_bountifulbuyer"  # the configured token's user, not the seller
    assert f"<ItemID>{bid_on.item_id}</ItemID>" in offer.body


async def test_no_one_bids_on_their_own_listing(gateway, emulator):
    """The listing of an opaque AddItem without credentials is the configured user's, who
    then cannot bid on it: eBay's 12011, as a statement error."""
    text = script("blog-2012-republished", "scenario2").replace('"290006316857"', '"{result.ItemID}"')
    with pytest.raises(Exception, match=r"12011"):
        await gateway.execute(text)
    listed = next(
        i for i in emulator.sandbox.market.items.values() if i.title == "Harry Potter and the Philosophers Stone"
    )
    assert listed.seller == "testuser_bountifulbuyer" and listed.bid_count == 0


@pytest.mark.parametrize("version", VERSIONS)
async def test_scenario_3_product_created_then_deleted(version, gateway, emulator):
    market = emulator.sandbox.market
    text = script(version, "scenario3")
    assert "<eBayAuthToken>AgAAAA**AQAAAA**aAAAAA**HQ7MTw**" in text
    result = (await gateway.execute(text)).value
    add, delete = emulator.sandbox.requests
    assert (add.call, delete.call) == ("AddSellingManagerProduct", "DeleteSellingManagerProduct")
    product = result["DeletedSellingManagerProductDetails"]
    assert product["ProductName"] == "Harry Potter Book4"
    assert (product["QuantityAvailable"], product["FolderID"]) == (50, 4651612545)
    assert f"<ProductID>{product['ProductID']}</ProductID>" in delete.body
    assert str(product["ProductID"]) not in market.products  # created, then gone


async def test_the_sample_item_takes_a_bid_and_unknown_credentials_are_refused(gateway, emulator):
    result = (
        await gateway.execute(
            "return insert into trading.PlaceOffer (ErrorLanguage,EndUserIP,ItemID,Offer.Action, Offer.MaxBid, "
            'Offer.Quantity) values ("en_US", "192.168.255.255", "290006316857", "Bid", "20.00","1");'
        )
    ).value
    assert result["SellingStatus"]["HighBidder"]["UserID"] == "testuser_bountifulbuyer"
    bad = script("blog-2012", "scenario2").replace("<Password>ebay</Password>", "<Password>wrong</Password>")
    with pytest.raises(Exception, match="931"):
        await gateway.execute(bad)


def run(path: Path, config: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "qlgate", "run", str(path), "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("name", ["scenario1", "scenario2", "scenario3"])
def test_qlgate_run_each_script(version, name, tmp_path):
    config = tmp_path / "emulator.json"
    config.write_text(json.dumps({"ebay": {"environment": "emulator"}}))
    path = next((ROOT / "scripts" / "ebay" / version).glob(f"{name}*.ql"))
    proc = run(path, config)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["Ack"] == "Success"
    if name == "scenario1":
        assert out["WatchListCount"] == 0
    elif name == "scenario2":
        assert out["SellingStatus"]["HighBidder"]["UserID"] == "testuser_bountifulbuyer"
    else:
        assert out["DeletedSellingManagerProductDetails"]["ProductName"] == "Harry Potter Book4"
