"""The gateway through a real server: /q, routes with every binding of
spec §14.2, metadata endpoints and error statuses."""

import pytest

from tests.conftest import served

TABLES = {
    "items.ql": "create table items on select get from '{config.base}/users/{userId}/items?sort={sort}&h={h}' "
    "using headers 'X-Site' = '{site}' using defaults site = 'US'",
    "post.ql": "create table post on select post to '{config.base}/echo' "
    "using bodyTemplate 'post.xml.mu' type 'application/xml'",
    "post.xml.mu": "<r>{{#params}}<a>{{a}}</a><b>{{b}}</b>{{/params}}</r>",
}
ROUTES = {
    "items.ql": '-- Items of a user.\nr = select * from items where userId = "{user}" and sort = "{order}";\n'
    'return "{r}" via route "/u/{user}?order={order}&page={^page}" with optional params '
    "using defaults order = 'asc' using method get using headers 'X-Count' = '{order}'",
    "post.ql": 'return select * from post via route "/post" using method post',
}


@pytest.fixture
async def gateway(upstream, engine_for):
    async with served(engine_for(TABLES, routes=ROUTES)) as session:
        yield session


async def test_ad_hoc_q(gateway):
    async with gateway.get("/q", params={"s": 'a = {"x": [1, 2]}; return "{a.x}";'}) as resp:
        assert resp.status == 200 and resp.content_type == "application/json"
        assert await resp.json() == [1, 2]
    async with gateway.get("/q") as resp:
        assert resp.status == 400 and (await resp.json())["err"].startswith("Missing query: give the script as ?s=")
    async with gateway.get("/q", params={"s": "select * frm"}) as resp:
        body = await resp.json()
        assert resp.status == 400 and body["line"] == 1 and body["type"] == "QlSyntaxError"


async def test_route_binds_path_query_defaults_and_headers(upstream, gateway):
    upstream.reply("GET", "/users/u1/items", json_body={"items": [1]})
    async with gateway.get("/u/u1", params={"page": "2", "h": "from-query"}, headers={"site": "DE"}) as resp:
        assert resp.status == 200, await resp.text()
        assert await resp.json() == {"items": [1]}
        assert resp.headers["X-Count"] == "asc"
    sent = upstream.requests[0]
    assert sent.query == {"sort": "asc", "h": "from-query"} and sent.headers["x-site"] == "DE"


async def test_route_selection_errors(gateway):
    async with gateway.get("/u/u1") as resp:  # required ^page missing
        assert resp.status == 400 and await resp.json() == {
            "err": "No matching route",
            "type": "BadRequest",
            "status": 400,
            "missing": ["page"],
        }
    async with gateway.get("/nowhere") as resp:
        assert resp.status == 404
    async with gateway.delete("/u/u1", params={"page": "1"}) as resp:  # the path is right, the method is not
        assert resp.status == 405 and resp.headers["Allow"] == "GET, HEAD"


async def test_json_body_members_feed_the_body_template(upstream, gateway):
    upstream.echo("POST", "/echo", content_type="application/xml")
    async with gateway.post("/post", json={"a": "1 < 2", "b": "x"}) as resp:
        assert await resp.json() == {"r": {"a": "1 < 2", "b": "x"}}
    assert upstream.requests[0].body == b"<r><a>1 &lt; 2</a><b>x</b></r>"
    async with gateway.post("/post", data="{bad", headers={"Content-Type": "application/json"}) as resp:
        assert resp.status == 400 and "not valid" in (await resp.json())["err"]


async def test_upstream_failures_map_to_gateway_statuses(upstream, gateway):
    upstream.reply("GET", "/users/x/items", json_body={}, status=503)
    async with gateway.get("/u/x", params={"page": "1"}) as resp:
        body = await resp.json()
        assert resp.status == 502 and body["upstream_status"] == 503


async def test_metadata_endpoints(gateway):
    async with gateway.get("/tables") as resp:
        assert [t["name"] for t in await resp.json()] == ["items", "post"]
    async with gateway.get("/table", params={"name": "items"}) as resp:
        assert (await resp.json())["routes"] == [
            "/route?path=%2Fu%2F%7Buser%7D%3Forder%3D%7Border%7D%26page%3D%7B%5Epage%7D&method=get"
        ]
    async with gateway.get("/routes") as resp:
        assert [r["path"] for r in await resp.json()] == ["/post", "/u/{user}?order={order}&page={^page}"]
    async with gateway.get("/health") as resp:
        assert (await resp.json())["status"] == "ok"


async def test_diagnostics_on_request(upstream, gateway):
    upstream.reply("GET", "/users/u1/items", json_body=[])
    async with gateway.get("/u/u1", params={"page": "1", "diagnostics": "1"}) as resp:
        body = await resp.json()
        assert body["result"] == [] and body["diagnostics"]["calls"][0]["status"] == 200


async def test_jsonp_only_where_the_deployer_turns_it_on(engine_for):
    """Any web page can read a JSONP answer, so it is off unless ``gateway.jsonp`` is true."""
    async with served(engine_for(TABLES, config={"gateway": {"jsonp": True}})) as gateway:
        async with gateway.get("/q", params={"s": "return [1]", "callback": "cb.done"}) as resp:
            assert resp.content_type == "application/javascript" and await resp.text() == "cb.done([1])"
        async with gateway.get("/q", params={"s": "select", "callback": "cb"}) as resp:
            assert resp.status == 400 and (await resp.text()).startswith('cb({"err":')
    async with served(engine_for(TABLES)) as gateway:
        async with gateway.get("/q", params={"s": "return [1]", "callback": "cb.done"}) as resp:
            assert resp.content_type == "application/json" and await resp.json() == [1]


async def test_compression_and_route_pages(gateway):
    big = 'return "' + "x" * 4000 + '"'
    async with gateway.get(
        "/q", params={"s": big}, headers={"Accept-Encoding": "deflate;q=0.5, gzip;q=0.9"}, auto_decompress=False
    ) as resp:
        assert resp.headers["Content-Encoding"] == "gzip" and resp.headers["Vary"] == "Accept-Encoding"
    async with gateway.get("/q", params={"s": big}, headers={"Accept-Encoding": "identity"}) as resp:
        assert "Content-Encoding" not in resp.headers
    async with gateway.get("/routes/get/u/{user}") as resp:
        assert (await resp.json())["method"] == "get"


async def test_describe_pages_are_html_for_browsers_and_escape_everything(gateway):
    browser = {"Accept": "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8"}
    async with gateway.get("/tables", headers=browser) as resp:
        page = await resp.text()
        assert resp.content_type == "text/html" and '<a href="/table?name=items">' in page
    async with gateway.get("/table", params={"name": "post"}, headers=browser) as resp:
        page = await resp.text()
        assert "&lt;r&gt;{{#params}}" in page and "<r>{{" not in page  # the template source, escaped
    async with gateway.get("/tables", params={"format": "json"}, headers=browser) as resp:
        assert resp.content_type == "application/json"
    async with gateway.get("/routes") as resp:
        assert resp.content_type == "application/json"
