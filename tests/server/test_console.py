"""The web console in a real browser: Debian's Chromium driven headless by
Playwright, against a real ``qlgate serve`` process with the built-in eBay
emulator. Screenshots land in ``tests/artifacts/`` for people to look at."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect, sync_playwright

from qlgate.limits.stores.host import RELOAD_S
from tests.sandbox.test_cli import free_port, stop, wait_for

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = os.environ.get("QLGATE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def start_gateway(*extra: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("EBAY_")}
    # a jobs database of its own: the jobs view counts every job in it
    home = tempfile.mkdtemp(prefix="qlgate-console-")
    env["QLGATE_JOBS_DATABASE"] = os.path.join(home, "jobs.sqlite")
    # stderr (the access log, a line per request) goes to a file: a pipe nobody reads
    # fills up, and then every write to it, and the gateway with it, blocks
    log = Path(home, "stderr.log")
    with log.open("w") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-m", "qlgate", "serve", "--port", str(port), *extra],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(f"{base}/health", proc)
    except AssertionError as e:
        raise AssertionError(f"{e}\n{log.read_text()[-4000:]}") from None
    return proc, base


@pytest.fixture(scope="module")
def gateway():
    proc, base = start_gateway()
    yield base
    stop(proc)


@pytest.fixture(scope="module")
def browser():
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: run .ci/install-system-packages"
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture
def console(gateway, browser) -> Page:
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{gateway}/console")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    yield page
    page.close()
    assert not errors, errors


def run(page: Page, script: str) -> None:
    page.fill("#editor", script)
    page.press("#editor", "Control+Enter")
    expect(page.locator("#status")).not_to_have_class("busy")
    expect(page.locator("#status")).not_to_have_text("")


def screenshot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path), full_page=True)
    return path


# a search, one item's details, then three more at once: five calls, two of them in parallel
FIVE_CALLS = (
    "first = select searchResult.item[0].itemId from ebay.finding.findItemsByKeywords "
    'where keywords = "iphone";\n'
    'item = select Item.Title as title from ebay.shopping.GetSingleItem where ItemID = "{first}";\n'
    "more = select Item.Title as title from ebay.shopping.GetSingleItem\n"
    '  where ItemID in ("230851234562", "230851234563", "280770598060");\n'
    'return {"first": "{item}", "more": "{more}"};'
)


def test_run_a_script_see_the_tree_and_the_waterfall(console: Page):
    run(console, FIVE_CALLS)
    expect(console.locator("#status")).to_have_class("ok")
    expect(console.locator("#status")).to_contain_text("5 upstream calls")
    tree = console.locator("#result")
    expect(tree).to_contain_text('"Apple iPhone 5 - 16GB - White (Unlocked) Smartphone"')
    expect(tree).to_contain_text('"Apple iPhone 5 64GB Slate Unlocked - Excellent"')

    # the tree collapses: the "more" array hides its rows when closed
    more = tree.locator("details:has(> summary > .json-key:text-is('more'))")
    more.locator(":scope > summary").click()
    expect(more.locator(":scope > .json-children")).to_be_hidden()
    more.locator(":scope > summary").click()
    expect(more.locator(":scope > .json-children")).to_be_visible()

    rows = console.locator(".wf-call")
    expect(rows).to_have_count(5)
    expect(console.locator(".wf-call.failed")).to_have_count(0)
    labels = rows.all_inner_texts()
    assert sum("shopping.GetSingleItem 200" in label for label in labels) == 4
    bars = [(label, rows.nth(i).locator(".wf-bar").bounding_box()) for i, label in enumerate(labels)]
    lookups = sorted((box for label, box in bars if "GetSingleItem" in label), key=lambda b: b["x"])
    # the three ids of the `in` list went out at once: their bars share a moment
    in_list = lookups[:3]
    assert max(b["x"] for b in in_list) < min(b["x"] + b["width"] for b in in_list)
    # the lookup of the found id waited for the search that found it
    finding = next(box for label, box in bars if "findItemsByKeywords" in label)
    assert lookups[-1]["x"] >= finding["x"] + finding["width"] - 1
    path = screenshot(console, "console-run.png")
    assert path.stat().st_size > 10_000


def test_keywords_strings_and_interpolations_are_coloured(console: Page):
    console.fill("#editor", 'x = select * from ebay.shopping.GetSingleItem where ItemID = "{id}"; -- note')
    layer = console.locator("#highlight")
    expect(layer.locator(".tok-kw", has_text="select")).to_have_count(1)
    expect(layer.locator(".tok-kw", has_text="where")).to_have_count(1)
    expect(layer.locator(".tok-str .tok-var")).to_have_text("{id}")
    expect(layer.locator(".tok-comment")).to_have_text("-- note")
    # braces of a JSON literal are not an interpolation; names in braces are
    console.fill("#editor", 'return {"a": "{x.y}", "b": {c}};')
    expect(layer.locator(".tok-var")).to_have_text(["{x.y}", "{c}"])
    # the coloured layer holds exactly the editor's text, so the caret and the colours line up
    assert layer.inner_text().rstrip() == console.input_value("#editor")


def test_table_names_are_offered_as_you_type(console: Page):
    console.fill("#editor", "")
    console.locator("#editor").type("return select * from GetSingleI")
    options = console.locator("#completions li")
    expect(console.locator("#completions")).to_be_visible()
    expect(options.first).to_have_text("ebay.shopping.GetSingleItem")
    console.press("#editor", "Enter")
    expect(console.locator("#completions")).to_be_hidden()
    assert console.input_value("#editor") == "return select * from ebay.shopping.GetSingleItem"
    # not offered where a table name cannot go
    console.locator("#editor").type(" where ItemID = GetSingle")
    expect(console.locator("#completions")).to_be_hidden()


def test_completion_ranks_prefixes_then_suffixes_then_substrings(console: Page):
    ranked = console.evaluate("""async () => {
        const {candidates} = await import('/console/static/completion.js');
        const names = ['ebay.trading.GetItem', 'ebay.shopping.GetSingleItem', 'x.itemized', 'shop.item', 'item.list'];
        return [candidates(names, 'select * from item'), candidates(names, 'x = item')];
    }""")
    assert ranked[0] == {
        "word": "item",
        "names": ["item.list", "shop.item", "x.itemized", "ebay.shopping.GetSingleItem", "ebay.trading.GetItem"],
    }
    assert ranked[1]["names"] == []


def test_a_syntax_error_names_its_line_and_moves_the_caret_there(console: Page):
    run(console, 'a = select * from ebay.shopping.GetSingleItem where ItemID = "1";\nreturn selec * from x')
    expect(console.locator("#status")).to_have_class("failed")
    expect(console.locator("#status")).to_contain_text("400 QlSyntaxError (line 2")
    expect(console.locator("#result .error")).to_contain_text("line 2")
    caret = console.evaluate("document.getElementById('editor').selectionStart")
    assert caret > console.input_value("#editor").index("\n")


def test_a_failed_upstream_call_is_red_in_the_waterfall(console: Page, gateway: str):
    described = json.loads(urllib.request.urlopen(f"{gateway}/tables/ebay.shopping.GetSingleItem", timeout=30).read())
    emulator = described["select"]["uri"].split("/shopping")[0]
    script = (
        f'create table gone on select get from "{emulator}/no-such-call";\n'
        'ok = select Item.Title from ebay.shopping.GetSingleItem where ItemID = "230851234561";\n'
        "missing = select * from gone;\n"
        'return {"ok": "{ok}", "missing": "{missing}"};'
    )
    run(console, script)
    expect(console.locator("#status")).to_have_class("failed")
    expect(console.locator(".wf-call")).to_have_count(2)
    failed = console.locator(".wf-call.failed")
    expect(failed).to_have_count(1)
    expect(failed.locator(".wf-label")).to_have_text("gone 404")
    color = failed.locator(".wf-bar").evaluate("bar => getComputedStyle(bar).backgroundColor")
    assert color == "rgb(207, 34, 46)"
    screenshot(console, "console-failed-call.png")


def test_browse_tables_and_try_an_example(console: Page):
    console.fill("#filter", "GetUserProfile")
    items = console.locator("#catalog .table-item")
    expect(items).to_have_count(1)
    items.first.click()
    detail = console.locator("#detail")
    expect(detail.locator("h3")).to_have_text("ebay.shopping.GetUserProfile")
    expect(detail).to_contain_text("UserID")
    detail.locator("#try-it").click()
    assert (
        console.input_value("#editor")
        == 'select User from ebay.shopping.GetUserProfile where UserID = "testuser_magicalbookseller"'
    )
    console.click("#run")
    expect(console.locator("#status")).to_have_class("ok")
    expect(console.locator("#result")).to_contain_text('"testuser_magicalbookseller"')


def test_browse_routes_and_try_one(console: Page):
    console.click("#browser [data-kind=routes]")
    console.fill("#filter", "/ebay/items")
    route = console.locator("#catalog .route-item")
    expect(route).to_have_count(1)
    route.click()
    expect(console.locator("#route-url")).to_have_value("/ebay/items/230851234561?include=Details,Description")
    console.click("#detail #try-it")
    expect(console.locator("#status")).to_have_class("ok")
    expect(console.locator("#result")).to_contain_text("230851234561")
    expect(console.locator(".wf-call")).to_have_count(1)
    screenshot(console, "console-route.png")


def test_the_jobs_view_shows_types_against_their_limits_workers_and_jobs(console: Page, gateway: str):
    def http(method: str, path: str, body) -> dict:
        request = urllib.request.Request(
            gateway + path, data=json.dumps(body).encode(), method=method, headers={"Content-Type": "application/json"}
        )
        return json.loads(urllib.request.urlopen(request, timeout=30).read())

    http("PUT", "/limits/ebay.shopping", {"limit": 2})
    script = 'return select Item.Title from ebay.shopping.GetSingleItem where ItemID = "230851234561"'
    done = [http("POST", "/jobs", {"script": script})["id"] for _ in range(2)]
    http("POST", "/jobs", {"script": script, "not_before": "+1h"})
    for job_id in done:
        assert json.loads(urllib.request.urlopen(f"{gateway}/jobs/{job_id}?wait=20", timeout=60).read())["state"] == "done"
    console.click("#jobs-tab")
    view = console.locator("#jobs-view")
    expect(view).to_be_visible()
    expect(console.locator("#catalog")).to_be_hidden()
    expect(console.locator("#jobs-master")).to_have_text("embedded")
    row = console.locator('#jobs-limits tr[data-type="ebay.shopping"]')
    expect(row).to_contain_text("0 / 2")
    expect(row.locator(".waiting")).to_have_text("1")
    assert row.locator(".jobs-bar span").evaluate("fill => fill.getBoundingClientRect().width") == 0  # 0 of 2
    expect(console.locator("#jobs-workers")).to_contain_text("embedded master")
    expect(console.locator("#jobs-recent .job-done")).to_have_count(2)
    expect(console.locator("#jobs-recent .job-queued")).to_have_count(1)
    screenshot(console, "console-jobs.png")
    console.click("#browser [data-kind=tables]")
    expect(view).to_be_hidden()
    expect(console.locator("#catalog")).to_be_visible()


def test_the_jobs_view_shows_each_types_rate_and_what_is_left_today(console: Page, gateway: str):
    def put(path: str, body) -> None:
        request = urllib.request.Request(
            gateway + path, data=json.dumps(body).encode(), method="PUT", headers={"Content-Type": "application/json"}
        )
        urllib.request.urlopen(request, timeout=30).read()

    # types no other test of the module calls, and rates that hold none of them back
    put("/rates/ebay.trading", "1000/day@America/Los_Angeles")
    put("/rates/ebay.commerce", "20/s")
    time.sleep(2 * RELOAD_S)  # every gateway process has read the new rates: the call below counts
    try:
        run(console, 'return select Item.Title from ebay.trading.GetItem where ItemID = "230851234561";')
        expect(console.locator("#status")).to_have_class("ok")
        left = json.loads(urllib.request.urlopen(f"{gateway}/limits", timeout=30).read())["ebay.trading"]["calls"]["leftToday"]
        assert left < 1000  # the call counted
        console.click("#jobs-tab")
        daily = console.locator('#jobs-rates tr[data-type="ebay.trading"]')
        expect(daily.locator(".rate")).to_have_text("1,000 calls a day (America/Los_Angeles)")
        expect(daily.locator(".left")).to_have_text(f"{left:,} of 1,000")
        fill = daily.locator(".jobs-bar span").evaluate(
            "f => f.getBoundingClientRect().width / f.parentNode.getBoundingClientRect().width"
        )
        assert abs(fill - left / 1000) < 0.02
        per_second = console.locator('#jobs-rates tr[data-type="ebay.commerce"]')
        expect(per_second.locator(".rate")).to_have_text("20 calls a second")
        expect(per_second.locator(".left")).to_have_text("no daily quota")
        screenshot(console, "console-jobs-rates.png")
        # a rate removed leaves the view at its next refresh
        put("/rates/ebay.commerce", None)
        expect(per_second).to_have_count(0)
    finally:
        put("/rates/ebay.trading", None)
        put("/rates/ebay.commerce", None)


def test_with_adhoc_disabled_the_console_says_so_and_routes_still_work(browser):
    proc, base = start_gateway("--disable-q")
    try:
        page = browser.new_page()
        page.goto(f"{base}/console")
        expect(page.locator("#adhoc-off")).to_be_visible()
        expect(page.locator("#run")).to_be_disabled()
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        page.click("#browser [data-kind=routes]")
        page.fill("#filter", "/ebay/users")
        page.locator("#catalog .route-item").click()
        page.click("#detail #try-it")
        expect(page.locator("#result")).to_contain_text("testuser_magicalbookseller")
        page.close()
    finally:
        stop(proc)


def test_disable_console_removes_it():
    proc, base = start_gateway("--disable-console")
    try:
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(f"{base}/console", timeout=30)
        assert missing.value.code == 404
    finally:
        stop(proc)


def test_with_api_keys_the_console_asks_for_one_and_keeps_it_in_the_tab(browser, tmp_path):
    config = json.loads((ROOT / "config" / "dev.json").read_text())
    key = "console-" + "k" * 24
    config["gateway"] = {"auth": {"keys": [{"name": "me", "key": key, "scopes": ["console", "query"]}]}}
    (tmp_path / "config.json").write_text(json.dumps(config))
    proc, base = start_gateway("--config", str(tmp_path / "config.json"))
    try:
        page = browser.new_page()
        page.goto(f"{base}/console")
        dialog = page.locator("#key-dialog")
        expect(dialog).to_be_visible()
        page.fill("#key-input", "not-the-key")
        page.click("#key-save")
        expect(page.locator("#key-note")).to_have_text("That key was not accepted.")
        page.fill("#key-input", key)
        page.click("#key-save")
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        expect(page.locator("#table-count")).not_to_have_text("")
        assert page.evaluate("sessionStorage.getItem('qlgate.apiKey')") == key
        run(page, "return [1, 2];")
        expect(page.locator("#status")).to_have_class("ok")
        # the console keeps the script in local storage, never the key
        kept = page.evaluate("JSON.stringify(Object.entries(localStorage))")
        assert "return [1, 2];" in kept and key not in kept
        page.reload()  # the tab keeps it: no second question
        expect(page.locator("body")).to_have_attribute("data-ready", "true")
        expect(dialog).to_be_hidden()
        page.close()
        fresh = browser.new_page()  # another tab asks again
        fresh.goto(f"{base}/console")
        expect(fresh.locator("#key-dialog")).to_be_visible()
        fresh.close()
    finally:
        stop(proc)
