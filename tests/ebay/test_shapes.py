"""Stable shapes in the eBay tables and the shipped routes, against the emulator:
the lists the catalog's schema says may repeat are arrays whether eBay answers
with one element or several (XML gives an object for one), and the routes under
``routes/ebay/`` answer ``items``, ``watching`` and ``bidding`` as arrays — empty
when nothing matched. The generator's ``with arrays`` paths come from the schema."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import aiohttp
import pytest

from qlgate.ebay.generate import _response_tree, array_paths
from qlgate.engine.engine import Engine
from tests.conftest import served

ROOT = Path(__file__).resolve().parents[2]
CATALOG = ROOT / "data" / "ebay" / "catalog.json"  # committed: these tests run in every clone


@contextlib.asynccontextmanager
async def gateway(emulator):
    """The gateway over the shipped tables and routes, its eBay tables on the emulator."""
    async with (
        Engine(tables=ROOT / "tables", routes=ROOT / "routes", config=emulator.config()) as engine,
        served(engine) as session,
    ):
        yield session


async def get(session: aiohttp.ClientSession, path: str) -> dict:
    async with session.get(path) as resp:
        assert resp.status == 200, await resp.text()
        return await resp.json()


# ---------------------------------------------------------------- tables


async def test_a_finding_search_answers_its_items_as_an_array_for_one_hit_several_and_none(emulator):
    search = 'return select * from ebay.finding.findItemsByKeywords where keywords = "{k}" and paginationInput.entriesPerPage = "{n}"'
    async with Engine(tables=ROOT / "tables", config=emulator.config()) as engine:
        one = (await engine.execute(search.format(k="iphone", n=1))).value
        two = (await engine.execute(search.format(k="iphone", n=2))).value
        none = (await engine.execute(search.format(k="zzqqxxnothing", n=2))).value
    assert [len(r["searchResult"]["item"]) for r in (one, two, none)] == [1, 2, 0]
    assert one["searchResult"]["item"][0] == two["searchResult"]["item"][0]
    # deeper lists of the schema too: an item's payment methods, however many it has
    assert all(
        isinstance(item["paymentMethod"], list) for item in two["searchResult"]["item"] if "paymentMethod" in item
    )


async def test_a_trading_list_is_an_array_with_one_element(emulator):
    async with Engine(tables=ROOT / "tables", config=emulator.config()) as engine:
        await engine.execute('insert into ebay.trading.AddToWatchList (ItemID) values ("230851234561")')
        buying = (
            await engine.execute('return select * from ebay.trading.GetMyeBayBuying where WatchList.Include = "true"')
        ).value
    watched = buying["WatchList"]["ItemArray"]["Item"]
    assert isinstance(watched, list) and [i["ItemID"] for i in watched] == [230851234561]


# ---------------------------------------------------------------- routes


@pytest.mark.parametrize(
    "route",
    [
        "/ebay/finding/keywords?keywords=iphone&entriesperpage={n}",
        "/ebay/finding/category?categoryid=9355&entriesperpage={n}",
        "/ebay/finding/advanced?keywords=iphone&entriesperpage={n}",
    ],
)
async def test_a_finding_route_answers_items_as_an_array_for_one_hit_and_for_two(emulator, route):
    async with gateway(emulator) as session:
        one = await get(session, route.format(n=1))
        two = await get(session, route.format(n=2))
    assert isinstance(one["items"], list) and len(one["items"]) == 1
    assert isinstance(two["items"], list) and len(two["items"]) == 2
    assert one["items"][0]["itemId"] == two["items"][0]["itemId"]


async def test_a_finding_route_without_hits_answers_an_empty_array(emulator):
    async with gateway(emulator) as session:
        found = await get(session, "/ebay/finding/keywords?keywords=zzqqxxnothing")
    assert found["items"] == []
    assert found["pagination"]["totalEntries"] == 0


async def test_my_buying_answers_arrays_for_no_item_one_and_two(emulator):
    async with gateway(emulator) as session:
        empty = await get(session, "/ebay/mybuying")
        async with session.post("/ebay/watchlist/230851234561") as resp:
            assert resp.status == 200, await resp.text()
        one = await get(session, "/ebay/mybuying")
        async with session.post("/ebay/watchlist/230851234562") as resp:
            assert resp.status == 200, await resp.text()
        two = await get(session, "/ebay/mybuying")
    assert empty == {"watching": [], "bidding": []}
    assert [i["ItemID"] for i in one["watching"]] == [230851234561]
    assert sorted(i["ItemID"] for i in two["watching"]) == [230851234561, 230851234562]
    assert one["bidding"] == two["bidding"] == []


# ---------------------------------------------------------------- the generator


def test_the_main_list_of_a_call_is_written_out_and_the_others_anywhere():
    catalog = json.loads(CATALOG.read_text())
    call = next(c for c in catalog["calls"] if c["call"] == "findItemsByKeywords")
    paths = array_paths(catalog, "finding", call)
    assert paths[0] == "searchResult.item"  # made [] on no hit
    assert "..paymentMethod" in paths and "..error" in paths
    assert "paginationOutput" not in " ".join(paths)  # not a list in the schema


def test_every_anywhere_path_names_only_elements_that_repeat():
    """A ``..`` path would wrap every member it matches: the generator must only pick
    suffixes that, in the call's schema tree, end repeating elements alone."""
    catalog = json.loads(CATALOG.read_text())
    for call in catalog["calls"]:
        service = call["service"]
        tree = _response_tree(catalog, service, (call.get("response") or {}).get("fields", []))
        repeated = {path for path, flag in tree if flag}
        for declared in array_paths(catalog, service, call):
            if not declared.startswith(".."):
                assert declared in repeated, (call["call"], declared)
                continue
            tail = declared[2:]
            matches = [(p, f) for p, f in tree if p == tail or p.endswith("." + tail)]
            assert matches and all(flag for _, flag in matches), (call["call"], declared)


def test_the_committed_tables_declare_the_generated_paths():
    text = (ROOT / "tables" / "ebay" / "finding" / "findItemsByKeywords.ql").read_text()
    assert "     with arrays 'searchResult.item'," in text
