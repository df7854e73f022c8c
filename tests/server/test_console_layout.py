"""The console's layout and catalog in a real browser (the fixtures of ``test_console``),
at 1280 and at 420 pixels: what a newcomer tripped over. The list of tables ran into the
details panel, and a long description pushed "Try it" out of sight; "Try it" left the last
run's error beside the new script; 300 of 502 tables were listed without a word about the
rest; at 420 px the side bar kept 60% of the width and the editor and inputs shrank to
nothing. Screenshots land in ``tests/artifacts/``."""

from __future__ import annotations

import json
import urllib.request

from playwright.sync_api import Locator, Page, expect

from tests.server import test_console
from tests.server.test_console import FIVE_CALLS, run, screenshot

browser, gateway, console = test_console.browser, test_console.gateway, test_console.console  # its fixtures

WIDE, PHONE = {"width": 1280, "height": 800}, {"width": 420, "height": 800}
LONG_INFO = "ebay.buy.browse.checkCompatibility"  # a description of a dozen lines


def box(locator: Locator) -> dict:
    found = locator.bounding_box()
    assert found is not None, f"{locator} is not shown"
    return found


def open_table(page: Page, name: str) -> Locator:
    page.fill("#filter", name)
    page.locator("#catalog .table-item", has_text=name).first.click()
    detail = page.locator("#detail")
    expect(detail.locator("h3")).to_have_text(name)
    return detail


def catalog_drawn_inside_detail(page: Page) -> list:
    """Points of the details panel (a grid of them) where the list is what shows."""
    return page.evaluate(
        """() => {
            const d = document.getElementById('detail').getBoundingClientRect(), hits = [];
            for (let y = Math.max(d.top, 0) + 1; y < Math.min(d.bottom, innerHeight); y += 6)
                for (let x = d.left + 4; x < d.right; x += 30) {
                    const at = document.elementFromPoint(x, y);
                    if (at && at.closest('#catalog')) hits.push([x, y]);
                }
            return hits;
        }"""
    )


def tables(gateway: str) -> list[dict]:
    with urllib.request.urlopen(f"{gateway}/tables?format=json", timeout=30) as answer:
        return json.loads(answer.read())


def test_the_details_open_below_the_list_with_try_it_in_sight(console: Page):
    for size, name in ((WIDE, "console-details-1280.png"), (PHONE, "console-details-420.png")):
        console.set_viewport_size(size)
        detail = open_table(console, LONG_INFO)
        console.fill("#filter", "")  # the whole list again, the details still open
        catalog, shown = box(console.locator("#catalog")), box(detail)
        assert catalog["y"] + catalog["height"] <= shown["y"] + 0.5, (catalog, shown)
        assert catalog["height"] >= 90  # a few rows of the list stay
        assert catalog_drawn_inside_detail(console) == []
        # the example and its button come before the dozen lines of description
        button = box(detail.locator("#try-it"))
        assert shown["y"] <= button["y"] and button["y"] + button["height"] <= shown["y"] + shown["height"], (
            button,
            shown,
        )
        expect(detail.locator("#try-it")).to_be_in_viewport(ratio=1)
        screenshot(console, name)
        # Esc closes them and gives the list the focus back, at the row they came from
        detail.locator("#try-it").focus()
        console.keyboard.press("Escape")
        expect(detail).to_be_hidden()
        expect(console.locator("#catalog .table-item", has_text=LONG_INFO)).to_be_focused()


def test_try_it_clears_the_last_runs_error(console: Page):
    run(console, "return selec * from nowhere;")
    expect(console.locator("#status")).to_have_class("failed")
    expect(console.locator("#result .error")).to_be_visible()
    detail = open_table(console, "ebay.shopping.GetUserProfile")
    detail.locator("#try-it").click()
    expect(console.locator("#editor")).to_have_value(
        'select User from ebay.shopping.GetUserProfile where UserID = "testuser_magicalbookseller"'
    )
    # nothing of the failed script is left to read as this one's
    expect(console.locator("#result .error")).to_have_count(0)
    expect(console.locator("#status")).to_have_text("")
    expect(console.locator("#status")).not_to_have_class("failed")
    expect(console.locator("#waterfall")).to_be_empty()
    expect(console.locator("#result")).to_contain_text("Not run yet")
    screenshot(console, "console-try-it-cleared.png")
    console.click("#run")
    expect(console.locator("#status")).to_have_class("ok")
    expect(console.locator("#result")).to_contain_text('"testuser_magicalbookseller"')


def test_every_table_is_listed_and_the_count_says_how_many(console: Page, gateway: str):
    names = [t["name"] for t in tables(gateway)]
    assert len(names) > 300  # the old console listed 300 and said nothing of the rest
    items = console.locator("#catalog .table-item")
    expect(items).to_have_count(len(names))
    assert items.all_inner_texts() == names
    count = console.locator("#catalog-count")
    expect(count).to_have_text(f"{len(names):,} tables")
    matching = [n for n in names if "getitem" in n.lower()]
    console.fill("#filter", "GetItem")
    expect(items).to_have_count(len(matching))
    expect(count).to_have_text(f"{len(matching)} of {len(names):,} tables match “GetItem”")
    console.fill("#filter", "")
    expect(items).to_have_count(len(names))
    items.last.scroll_into_view_if_needed()
    expect(items.last).to_be_visible()
    # the keyboard walks the list: ↓ to the next row, Enter opens it
    items.first.focus()
    console.keyboard.press("ArrowDown")
    expect(items.nth(1)).to_be_focused()
    console.keyboard.press("Enter")
    expect(console.locator("#detail h3")).to_have_text(names[1])
    # one row is in the Tab order, not 500: Tab goes on from the list to the details
    console.keyboard.press("Tab")
    expect(console.locator("#detail .close")).to_be_focused()
    console.keyboard.press("Enter")
    expect(console.locator("#detail")).to_be_hidden()
    expect(items.nth(1)).to_be_focused()
    console.click("#browser [data-kind=routes]")
    expect(count).to_have_text(f"{console.locator('#catalog .route-item').count()} routes")


def test_at_420_pixels_the_side_bar_goes_above_and_inputs_keep_their_width(console: Page):
    console.set_viewport_size(PHONE)
    width, height = PHONE["width"], PHONE["height"]
    aside, workspace = box(console.locator("#browser")), box(console.locator("#workspace"))
    # one column: the side bar over the workspace, a few rows of list high, not beside it
    assert aside["height"] <= 0.45 * height, aside
    assert workspace["y"] >= aside["y"] + aside["height"] - 0.5
    assert workspace["width"] >= 0.95 * width, workspace  # it had 180 px of 420
    assert console.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scrolling
    assert box(console.locator("#filter"))["width"] >= 0.8 * width
    assert box(console.locator("#editor"))["width"] >= 0.85 * width
    console.click("#vars summary")
    console.click("#vars-add")
    for field in console.locator("#vars-rows .var-row input").all():
        assert box(field)["width"] >= 100
    console.click("#share")
    assert box(console.locator("#share-link"))["width"] >= 150
    for button in ("#run", "#share", "#expand", "#collapse"):
        found = box(console.locator(button))
        assert found["x"] >= 0 and found["x"] + found["width"] <= width, button
    run(console, FIVE_CALLS)
    expect(console.locator("#status")).to_have_class("ok")
    tracks = console.locator("#waterfall .wf-call .wf-track")
    expect(tracks).to_have_count(5)
    assert min(box(t)["width"] for t in tracks.all()) >= 150
    assert box(console.locator("#result"))["width"] >= 0.9 * width
    screenshot(console, "console-run-420.png")
    console.set_viewport_size(WIDE)  # and back: the side bar beside the workspace again
    aside, workspace = box(console.locator("#browser")), box(console.locator("#workspace"))
    assert aside["x"] + aside["width"] <= workspace["x"] + 0.5 and aside["width"] <= 0.3 * WIDE["width"]
    screenshot(console, "console-run-1280.png")
