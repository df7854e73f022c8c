"""The console's own state in a real browser (Chromium via Playwright, as in
``test_console``), against a real ``qlgate serve`` whose only tables are a made-up
weather API on a loopback upstream: the first script comes from those tables (not
eBay's), "try it" asks for a required value rather than sending the describe page's
``…``, variables travel with the script as request parameters, and the script and its
variables survive a reload and travel in a shared link."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.sandbox.test_cli import stop
from tests.server import test_console
from tests.server.test_console import screenshot, start_gateway

browser = test_console.browser  # its fixture: one Chromium for the module


class Weather(BaseHTTPRequestHandler):
    """The upstream: echoes what it was asked, so a test sees what the gateway sent."""

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
        if url.path == "/v1/forecast":
            body = {"city": query.get("city"), "temp": 21}
        elif url.path == "/v1/alerts":
            body = {"region": query.get("region"), "alerts": ["wind"]}
        else:
            self.send_error(404)
            return
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def weather_gateway(tmp_path_factory) -> Iterator[str]:
    upstream = ThreadingHTTPServer(("127.0.0.1", 0), Weather)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{upstream.server_address[1]}"
    root = tmp_path_factory.mktemp("weather")
    (root / "tables" / "weather").mkdir(parents=True)
    (root / "routes").mkdir()
    (root / "tables" / "weather" / "forecast.ql").write_text(
        "-- Today's forecast for a city.\n"
        '-- Example: select city, temp from weather.forecast where city = "Paris"\n'
        f'create table weather.forecast on select get from "{base}/v1/forecast?city={{^city}}";\n'
    )
    (root / "tables" / "weather" / "alerts.ql").write_text(
        "-- Weather alerts for a region (no example: the console asks for the region).\n"
        f'create table weather.alerts on select get from "{base}/v1/alerts?region={{^region}}";\n'
    )
    (root / "routes" / "city.ql").write_text(
        "-- The forecast of one city.\n"
        'forecast = select city, temp from weather.forecast where city = "{city}";\n'
        "return \"{forecast}\" via route '/weather/{city}' using method get;\n"
    )
    proc, gateway = start_gateway("--tables", str(root / "tables"), "--routes", str(root / "routes"), "--workers", "1")
    yield gateway
    stop(proc)
    upstream.shutdown()


def open_console(browser: Browser, url: str, errors: list[str]) -> Page:
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    return page


@pytest.fixture
def weather(browser: Browser, weather_gateway: str) -> Iterator[Page]:
    errors: list[str] = []
    page = open_console(browser, f"{weather_gateway}/console", errors)
    yield page
    page.context.close()
    assert not errors, errors


def values(page: Page, selector: str) -> list[str]:
    return page.locator(selector).evaluate_all("inputs => inputs.map((i) => i.value)")


def sent_to_q(page: Page) -> list[str]:
    """Every /q request the page makes from now on, as its URL and body."""
    seen: list[str] = []
    page.on("request", lambda r: seen.append(f"{r.url}\n{r.post_data or ''}") if "/q?" in r.url else None)
    return seen


def test_the_first_script_is_an_example_of_this_gateways_own_tables(weather: Page):
    script = weather.input_value("#editor")
    assert "weather.forecast" in script and 'city = "Paris"' in script
    assert "ebay" not in script.lower()
    weather.click("#run")
    expect(weather.locator("#status")).to_have_class("ok")
    expect(weather.locator("#result")).to_contain_text('"Paris"')
    expect(weather.locator(".wf-call")).to_have_count(1)


def test_try_it_asks_for_a_required_value_instead_of_sending_a_placeholder(weather: Page):
    sent = sent_to_q(weather)
    weather.fill("#filter", "alerts")
    weather.locator("#catalog .table-item").click()
    expect(weather.locator("#detail pre.example")).to_contain_text("\u2026")  # the describe page's blank
    weather.click("#detail #try-it")
    form = weather.locator("#try-form")
    expect(form).to_be_visible()
    expect(form.locator("label")).to_have_text(["region"])
    form.locator("button[type=submit]").click()  # empty: the browser refuses, nothing is sent
    expect(form).to_be_visible()
    assert sent == []
    form.locator("input").fill("Île-de-France")
    form.locator("button[type=submit]").click()
    expect(weather.locator("#status")).to_have_class("ok")
    expect(weather.locator("#result")).to_contain_text('"Île-de-France"')
    assert weather.input_value("#editor") == 'select * from weather.alerts where region = "Île-de-France"'
    assert len(sent) == 1 and "\u2026" not in sent[0]

    # a value clause text cannot quote (both quotes, a brace) goes as a variable instead
    weather.click("#detail #try-it")
    weather.locator("#try-form input").fill("""say "{hi}" it's""")
    weather.locator("#try-form button[type=submit]").click()
    expect(weather.locator("#status")).to_have_class("ok")
    assert weather.input_value("#editor") == 'select * from weather.alerts where region = "{region}"'
    assert values(weather, "#vars .var-name") == ["region"]
    expect(weather.locator("#result")).to_contain_text("""say \\"{hi}\\" it's""")
    assert len(sent) == 2 and all("\u2026" not in s for s in sent)
    screenshot(weather, "console-try-it-form.png")


def test_try_it_on_a_route_asks_for_its_path_values(weather: Page):
    seen: list[str] = []
    weather.on("request", lambda r: seen.append(r.url) if "/weather/" in r.url else None)
    weather.click("#browser [data-kind=routes]")
    weather.locator("#catalog .route-item").click()
    expect(weather.locator("#route-url")).to_have_value("/weather/{city}")
    weather.click("#detail #try-it")
    weather.locator("#try-form input").fill("São Paulo")
    weather.locator("#try-form button[type=submit]").click()
    expect(weather.locator("#status")).to_have_class("ok")
    expect(weather.locator("#result")).to_contain_text('"São Paulo"')
    assert [url.split("?")[0].rsplit("/", 1)[1] for url in seen] == ["S%C3%A3o%20Paulo"]


def test_variables_are_sent_with_the_script(weather: Page):
    weather.click("#vars summary")
    for name, value in (("who", "Ada"), ("tag", "a"), ("tag", "b")):
        weather.click("#vars-add")
        weather.locator("#vars .var-name").last.fill(name)
        weather.locator("#vars .var-value").last.fill(value)
    expect(weather.locator("#vars-count")).to_have_text("(3)")
    weather.fill("#editor", 'return {"who": "{who}", "tags": "{tag}"};')
    weather.locator("#vars .var-value").last.press("Control+Enter")  # runs from the panel too
    expect(weather.locator("#status")).to_have_class("ok")
    expect(weather.locator("#result")).to_contain_text('"Ada"')
    expect(weather.locator("#result")).to_contain_text("tags: [2]")  # a name given twice is a list

    # a name the gateway reads itself is refused before anything is sent
    sent = sent_to_q(weather)
    weather.locator("#vars .var-name").first.fill("callback")
    expect(weather.locator("#vars .var-row").first).to_have_class("var-row invalid")
    weather.click("#run")
    expect(weather.locator("#status")).to_have_class("failed")
    expect(weather.locator("#status")).to_contain_text('"callback" is a parameter of the gateway itself')
    assert sent == []


def test_the_script_and_variables_survive_a_reload(weather: Page):
    weather.fill("#editor", 'return {"kept": "{who}"};')
    weather.click("#vars summary")
    weather.click("#vars-add")
    weather.locator("#vars .var-name").fill("who")
    weather.locator("#vars .var-value").fill("Grace")
    weather.reload()
    expect(weather.locator("body")).to_have_attribute("data-ready", "true")
    assert weather.input_value("#editor") == 'return {"kept": "{who}"};'  # not the default example
    expect(weather.locator("#vars")).to_have_attribute("open", "")
    assert values(weather, "#vars .var-name") == ["who"]
    assert values(weather, "#vars .var-value") == ["Grace"]
    weather.click("#run")
    expect(weather.locator("#result")).to_contain_text('"Grace"')


def test_share_puts_the_script_in_a_link_that_opens_it_elsewhere(weather: Page, browser: Browser, weather_gateway):
    script = 'x = select temp from weather.forecast where city = "{town}";\nreturn {"temp": "{x}", "note": "a & b #1"};'
    weather.fill("#editor", script)
    weather.click("#vars summary")
    weather.click("#vars-add")
    weather.locator("#vars .var-name").fill("town")
    weather.locator("#vars .var-value").fill("Zürich")
    weather.click("#share")
    link = weather.input_value("#share-link")
    assert link.startswith(f"{weather_gateway}/console#")
    assert weather.url == link  # in the address bar too
    assert "Z%C3%BCrich" in link and "town" in link

    errors: list[str] = []
    other = open_console(browser, link, errors)  # a new context: nothing kept there
    try:
        assert other.input_value("#editor") == script
        assert values(other, "#vars .var-name") == ["town"]
        assert values(other, "#vars .var-value") == ["Zürich"]
        other.click("#run")
        expect(other.locator("#status")).to_have_class("ok")
        expect(other.locator("#result")).to_contain_text("21")
        # once the script changes, the link's fragment goes: a reload shows the script as it is now
        other.locator("#editor").press("Control+End")
        other.locator("#editor").type(" -- edited")
        assert "#" not in other.url
        other.reload()
        expect(other.locator("body")).to_have_attribute("data-ready", "true")
        assert other.input_value("#editor") == script + " -- edited"
    finally:
        other.context.close()
    assert not errors, errors


def test_a_gateway_without_tables_starts_from_a_script_that_runs(browser: Browser, tmp_path: Path):
    (tmp_path / "tables").mkdir()
    (tmp_path / "routes").mkdir()
    proc, base = start_gateway(
        "--tables", str(tmp_path / "tables"), "--routes", str(tmp_path / "routes"), "--workers", "1"
    )
    errors: list[str] = []
    try:
        page = open_console(browser, f"{base}/console", errors)
        assert "ebay" not in page.input_value("#editor").lower()
        page.click("#run")
        expect(page.locator("#status")).to_have_class("ok")
        expect(page.locator("#result")).to_contain_text('"world"')
        page.context.close()
    finally:
        stop(proc)
    assert not errors, errors


def test_examples_name_their_blanks_and_quote_what_fills_them(weather: Page):
    got = weather.evaluate("""async () => {
        const {blanks, fillIn, defaultScript} = await import('/console/static/examples.js');
        const insert = 'insert into notes.add (subject, body.text) values ("\u2026", "\u2026")';
        return {
            names: blanks(insert).map((b) => b.name),
            where: blanks('select * from t where a = "\u2026" and b.c = "\u2026"').map((b) => b.name),
            filled: fillIn(insert, ["it's", 'say "hi"']),
            braces: fillIn('select * from t where s = "\u2026"', ["{x}"]),
            start: defaultScript([
                {name: "w.add", example: 'insert into w.add (a) values ("1")'},
                {name: "w.all", example: "select * from w.all"},
                {name: "w.one", example: 'a = select x from w.one where id = "1; 2"; return "{a}";'},
            ]),
        };
    }""")
    assert got["names"] == ["subject", "body.text"]
    assert got["where"] == ["a", "b.c"]
    assert got["filled"] == {
        "script": """insert into notes.add (subject, body.text) values ("it's", 'say "hi"')""",
        "variables": [],
    }
    # "s" is a parameter of the gateway itself: the variable gets a name of its own
    assert got["braces"] == {"script": 'select * from t where s = "{s_value}"', "variables": [["s_value", "{x}"]]}
    # a table that writes is never the first script; a `;` inside quotes does not end a line
    assert got["start"].splitlines()[1:] == ['a = select x from w.one where id = "1; 2";', 'return "{a}";']
