"""The console's waterfall in a real browser (the fixtures of ``test_console``): a
bar's colour says where its answer came from — sent upstream, the response cache
(stale hatched), shared with another request's call — and time a call waited
before it was sent is a segment of its own just before its bar."""

from __future__ import annotations

import itertools
import json
import urllib.request

from playwright.sync_api import Page, expect

from tests.server import test_console
from tests.server.test_console import FIVE_CALLS, run, screenshot

browser, gateway, console = test_console.browser, test_console.gateway, test_console.console  # its fixtures

SENT, CACHE, SHARED = "rgb(75, 143, 226)", "rgb(45, 164, 78)", "rgb(163, 113, 247)"
WAIT, QUEUE = "rgb(224, 155, 19)", "rgb(140, 149, 159)"


def colour(locator) -> str:
    return locator.evaluate("node => getComputedStyle(node).backgroundColor")


def render(page: Page, diagnostics: dict) -> None:
    """Draw ``diagnostics`` as the console draws a run's, through its own module."""
    page.evaluate(
        """async (diagnostics) => {
            const {renderWaterfall} = await import('/console/static/waterfall.js');
            renderWaterfall(document.getElementById('waterfall'), diagnostics);
        }""",
        diagnostics,
    )


def call(table: str, start: float, end: float, **extra) -> dict:
    return {
        "table": table,
        "method": "GET",
        "url": f"http://upstream.test/{table}",
        "status": 200,
        "bytes": 100,
        "attempts": 1,
        "source": "sent",
        "start_ms": start,
        "end_ms": end,
        "duration_ms": end - start,
        **extra,
    }


def diagnostics_of(*calls: dict, total: float = 200.0) -> dict:
    return {
        "total_ms": total,
        "calls_ms": sum(c["duration_ms"] for c in calls),
        "waited_ms": sum(c.get("waited_ms", 0) for c in calls),
        "queued_ms": sum(c.get("queued_ms", 0) for c in calls),
        "parallelism": 1.0,
        "coalesced": 0,
        "sent": sum(c["source"] == "sent" for c in calls),
        "cache_hits": sum(c["source"] == "cache" for c in calls),
        "shared": sum(c["source"] == "coalesced" for c in calls),
        "calls": list(calls),
    }


def test_the_second_run_of_a_cached_select_is_a_cache_bar(console: Page, gateway: str):
    described = json.loads(urllib.request.urlopen(f"{gateway}/tables/ebay.shopping.GetSingleItem", timeout=30).read())
    shopping = described["select"]["uri"].split("?")[0]
    script = (
        f'create table cached on select get from "{shopping}?callname=GetSingleItem&appid=x'
        '&responseencoding=JSON&version=765&siteid=0&ItemID={ItemID}" expires 60;\n'
        'return select * from cached where ItemID = "230851234561";'
    )
    bar = console.locator("#waterfall .wf-call .wf-bar")
    run(console, script)
    expect(console.locator("#status")).to_have_class("ok")
    expect(bar).to_have_count(1)
    expect(bar).to_have_class("wf-bar wf-sent")
    assert colour(bar) == SENT
    expect(console.locator(".wf-summary")).to_contain_text("1 sent upstream")

    run(console, script)
    expect(console.locator("#status")).to_have_class("ok")
    expect(bar).to_have_count(1)
    expect(bar).to_have_class("wf-bar wf-cache")
    expect(console.locator("#waterfall .wf-call")).to_have_class("wf-row wf-call wf-src-cache")
    assert colour(bar) == CACHE
    assert "from the response cache" in bar.get_attribute("title")
    expect(console.locator(".wf-summary")).to_contain_text("0 sent upstream · 1 from cache")
    expect(console.locator("#status")).to_contain_text("0 upstream calls · 1 answered without one")
    expect(console.locator(".wf-legend")).to_have_text("cache")
    screenshot(console, "console-cache-hit.png")


def test_shared_calls_and_waits_have_colours_of_their_own(console: Page):
    render(
        console,
        diagnostics_of(
            call("a.backedoff", 40.0, 60.0, waited_ms=40.0, wait="backoff"),
            call("b.shared", 5.0, 70.0, source="coalesced"),
            call("c.queued", 100.0, 150.0, queued_ms=60.0),
            call("d.cached", 150.0, 150.5, source="cache"),
            call("e.stale", 151.0, 151.5, source="cache", stale=True),
            call("f.plain", 0.0, 20.0),
        ),
    )
    rows = console.locator("#waterfall .wf-call")
    expect(rows).to_have_count(6)

    def row(table: str):
        return rows.filter(has_text=table)

    backoff = row("a.backedoff").locator(".wf-wait")
    queued = row("c.queued").locator(".wf-wait")
    expect(backoff).to_have_class("wf-wait wf-wait-backoff")
    expect(queued).to_have_class("wf-wait wf-wait-queued")
    expect(backoff).to_have_attribute("title", "waited 40.0 ms before sending: back-off (its table was failing)")
    expect(queued).to_have_attribute("title", "queued 60.0 ms for its API type's limits (call rate, calls in flight)")
    expect(row("b.shared").locator(".wf-bar")).to_have_class("wf-bar wf-coalesced")
    expect(row("e.stale").locator(".wf-bar")).to_have_class("wf-bar wf-stale")
    for table in ("b.shared", "d.cached", "e.stale", "f.plain"):
        expect(row(table).locator(".wf-wait")).to_have_count(0)

    colours = {
        "sent": colour(row("f.plain").locator(".wf-bar")),
        "cache": colour(row("d.cached").locator(".wf-bar")),
        "stale": colour(row("e.stale").locator(".wf-bar")),
        "shared": colour(row("b.shared").locator(".wf-bar")),
        "backoff": colour(backoff),
        "queued": colour(queued),
    }
    assert len(set(colours.values())) == len(colours), colours
    assert (colours["sent"], colours["cache"], colours["shared"]) == (SENT, CACHE, SHARED)
    assert (colours["backoff"], colours["queued"]) == (WAIT, QUEUE)
    stale_bar = row("e.stale").locator(".wf-bar")
    assert "repeating-linear-gradient" in stale_bar.evaluate("b => getComputedStyle(b).backgroundImage")

    # a wait ends where its call's bar begins, as long as it lasted on the same axis
    for table, segment in (("a.backedoff", backoff), ("c.queued", queued)):
        wait_box, bar_box = segment.bounding_box(), row(table).locator(".wf-bar").bounding_box()
        assert abs(wait_box["x"] + wait_box["width"] - bar_box["x"]) < 1.5
    track = row("a.backedoff").locator(".wf-track").bounding_box()
    assert abs(backoff.bounding_box()["width"] - track["width"] * 40 / 200) < 1.5

    summary = console.locator(".wf-summary")
    expect(summary).to_contain_text("3 sent upstream · 2 from cache (1 stale) · 1 shared with another request")
    expect(summary).to_contain_text("waited 40.0 ms (back-off, Retry-After) · queued 60.0 ms for limits")
    expect(console.locator(".wf-legend li")).to_have_text(
        ["sent", "cache", "stale cache", "shared", "back-off / Retry-After", "queued for limits"]
    )
    screenshot(console, "console-waits.png")


def test_a_retry_after_wait_comes_before_the_queueing_of_its_second_call(console: Page):
    render(
        console,
        diagnostics_of(
            call("a.first", 0.0, 10.0, status=429),
            call("a.first", 130.0, 150.0, waited_ms=100.0, wait="retry-after", queued_ms=20.0),
        ),
    )
    retried = console.locator("#waterfall .wf-call").nth(1)
    segments = retried.locator(".wf-wait")
    expect(segments).to_have_count(2)
    assert segments.evaluate_all("s => s.map((w) => w.dataset.wait)") == ["retry-after", "queued"]
    expect(segments.first).to_have_attribute("title", "waited 100 ms before sending again: the upstream's Retry-After")
    expect(console.locator("#waterfall .wf-call.failed .wf-bar")).to_have_class("wf-bar wf-sent wf-failed")


def test_at_800_pixels_labels_do_not_overlap(console: Page):
    console.set_viewport_size({"width": 800, "height": 700})
    render(
        console,
        diagnostics_of(
            *(call(f"ebay.shopping.GetMultipleItemsWithALongName{i}", i * 30.0, i * 30.0 + 45.0) for i in range(4)),
            total=1234.5,
        ),
    )
    ticks = console.locator("#waterfall .wf-axis span").evaluate_all(
        "spans => spans.filter((s) => s.offsetParent).map((s) => s.getBoundingClientRect().toJSON())"
    )
    assert len(ticks) >= 2
    for left, right in itertools.pairwise(ticks):
        assert left["right"] + 2 <= right["left"], ticks
    pane = console.locator("#waterfall").bounding_box()
    assert ticks[0]["left"] >= pane["x"] and ticks[-1]["right"] <= pane["x"] + pane["width"]
    for i in range(4):
        row = console.locator("#waterfall .wf-call").nth(i)
        label, track = row.locator(".wf-label").bounding_box(), row.locator(".wf-track").bounding_box()
        assert label["x"] + label["width"] <= track["x"]
        assert track["width"] >= 80
    screenshot(console, "console-waterfall-800.png")


def test_at_800_pixels_a_real_run_is_readable(console: Page):
    console.set_viewport_size({"width": 800, "height": 700})
    run(console, FIVE_CALLS)
    expect(console.locator("#status")).to_have_class("ok")
    rows = console.locator("#waterfall .wf-call")
    expect(rows).to_have_count(5)
    pane = console.locator("#waterfall").bounding_box()
    assert pane["width"] >= 400  # beside the result it had half the workspace: about 200 px
    for i in range(5):
        row = rows.nth(i)
        expect(row).to_be_in_viewport()
        label, track = row.locator(".wf-label"), row.locator(".wf-track").bounding_box()
        if "GetSingleItem" in label.inner_text():  # the whole label shows, not "shopping.Ge…"
            assert label.evaluate("l => l.scrollWidth <= l.clientWidth"), label.inner_text()
        # a call's duration stays on its track: not over the label, not past the pane
        time = row.locator(".wf-time").bounding_box()
        assert time["x"] >= track["x"] - 0.5 and time["x"] + time["width"] <= track["x"] + track["width"] + 0.5
        assert track["width"] >= 200
    screenshot(console, "console-run-800.png")


def test_a_duration_written_before_its_bar_does_not_cover_the_wait_before_it(console: Page):
    render(console, diagnostics_of(call("a.late", 150.0, 190.0, queued_ms=40.0), call("b.early", 0.0, 20.0)))
    row = console.locator("#waterfall .wf-call").filter(has_text="a.late")
    time, wait = row.locator(".wf-time").bounding_box(), row.locator(".wf-wait").bounding_box()
    bar = row.locator(".wf-bar").bounding_box()
    assert time["x"] + time["width"] <= wait["x"] + 0.5 < bar["x"]
    assert abs((time["y"] + time["height"] / 2) - (bar["y"] + bar["height"] / 2)) < 3  # on the bar's line
