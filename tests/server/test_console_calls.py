"""What the console's waterfall says of each call, in a real browser against a real
gateway: hovering or focusing a row shows the call's URL (masked as the gateway sends it)
and the line of the statement that made it — a row used to show neither — and a call the
run gave up on when another statement failed is marked cancelled, where it used to look
like a 0 ms success."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import Page, expect

from tests.sandbox.test_cli import stop
from tests.server import test_console
from tests.server.test_console import FIVE_CALLS, ROOT, run, screenshot, start_gateway

browser, gateway, console = test_console.browser, test_console.gateway, test_console.console  # its fixtures

SENT = "rgb(75, 143, 226)"


def test_a_row_shows_its_url_and_statement_line_on_hover_and_on_focus(console: Page):
    with console.expect_response(lambda r: "/q?" in r.url) as answer:
        run(console, FIVE_CALLS)
    expect(console.locator("#status")).to_have_class("ok")
    calls = sorted(answer.value.json()["diagnostics"]["calls"], key=lambda c: c["start_ms"])
    rows = console.locator("#waterfall .wf-call")
    expect(rows).to_have_count(len(calls))
    shown = console.locator("#waterfall .wf-detail")
    expect(shown).to_contain_text("Point at a call")
    for i, call in enumerate(calls):
        rows.nth(i).hover()
        expect(shown).to_contain_text(f"{call['method']} {call['url']}")
        expect(shown).to_contain_text(f"line {call['line']} ·")
    # the search is the script's first line; the three ids of the `in` list, its third
    assert calls[0]["line"] == 1 and sorted(c["line"] for c in calls[1:]) == [2, 3, 3, 3]
    # by keyboard: Tab reaches a row, and the lines below the rows say the same
    console.mouse.move(0, 0)
    expect(shown).to_contain_text("Point at a call")
    rows.first.focus()
    console.keyboard.press("Tab")
    expect(rows.nth(1)).to_be_focused()
    expect(shown).to_contain_text(calls[1]["url"])
    assert calls[1]["url"] in rows.nth(1).get_attribute("title")  # the pointer's own tooltip
    assert calls[1]["url"] in rows.nth(1).get_attribute("aria-label")
    screenshot(console, "console-call-focused.png")


class Upstream(BaseHTTPRequestHandler):
    """``/slow`` answers only once the test lets it (never, within a run); anything else is a 404."""

    release = threading.Event()

    def do_GET(self) -> None:
        if self.path.startswith("/slow"):
            self.release.wait(60)
            status, body = 200, b'{"late": true}'
        else:
            status, body = 404, b'{"error": "no such thing"}'
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def upstream() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"127.0.0.1:{server.server_address[1]}"
    Upstream.release.set()
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def open_gateway(upstream: str, tmp_path_factory) -> Iterator[str]:
    """A gateway whose callers' scripts may call the test's own upstream."""
    config = json.loads((ROOT / "config" / "dev.json").read_text())
    config.setdefault("gateway", {})["adhoc"] = {"allowedHosts": [upstream]}
    path = tmp_path_factory.mktemp("console-calls") / "config.json"
    path.write_text(json.dumps(config))
    proc, base = start_gateway("--config", str(path))
    yield base
    stop(proc)


def console_at(browser, base: str, size: dict) -> Page:
    page = browser.new_page(viewport=size)
    page.goto(f"{base}/console")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    return page


def test_a_call_cancelled_by_another_statements_failure_is_marked_cancelled(browser, open_gateway, upstream):
    script = (
        f'create table slow on select get from "http://{upstream}/slow?n={{n}}";\n'
        f'create table gone on select get from "http://{upstream}/gone";\n'
        'waiting = select * from slow where n = "1";\n'
        "missing = select * from gone;\n"
        'return {"waiting": "{waiting}", "missing": "{missing}"};'
    )
    for width in (1280, 420):
        page = console_at(browser, open_gateway, {"width": width, "height": 800})
        run(page, script)
        expect(page.locator("#status")).to_have_class("failed")
        rows = page.locator("#waterfall .wf-call")
        expect(rows).to_have_count(2)
        cancelled = page.locator("#waterfall .wf-call.cancelled")
        expect(cancelled).to_have_count(1)
        expect(cancelled.locator(".wf-label")).to_have_text("slow cancelled")
        expect(cancelled.locator(".wf-bar")).to_have_class("wf-bar wf-sent wf-cancelled")
        expect(cancelled.locator(".wf-time")).to_contain_text("cancelled")
        bar = cancelled.locator(".wf-bar")
        assert bar.evaluate("b => getComputedStyle(b).backgroundColor") != SENT  # not drawn as a success
        assert "repeating-linear-gradient" in bar.evaluate("b => getComputedStyle(b).backgroundImage")
        expect(page.locator("#waterfall .wf-call.failed .wf-label")).to_have_text("gone 404")
        expect(page.locator(".wf-legend")).to_contain_text("cancelled")
        expect(page.locator(".wf-summary")).to_contain_text("1 cancelled")
        cancelled.hover()
        shown = page.locator("#waterfall .wf-detail")
        expect(shown).to_contain_text(f"GET http://{upstream}/slow?n=1")
        expect(shown).to_contain_text("line 3 · slow · cancelled")
        screenshot(page, f"console-cancelled-{width}.png")
        page.close()
