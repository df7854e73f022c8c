"""What the response cache and single flight must never share (security review
of qlgate/cache): a deployer's credential's answer with a caller, one tenant's
answer with another, one table's hook key with another's; what an entry keeps;
how the memory backend counts bytes; single flight's cancel and error copies;
the ``cache`` settings it refuses."""

import asyncio
import json
import tracemalloc

import pytest

from qlgate.cache.entry import Entry
from qlgate.cache.flight import SingleFlight
from qlgate.cache.keys import credential_stand_in, hook_key, request_key
from qlgate.cache.memory import MemoryBackend
from qlgate.cache.settings import CacheSettings
from qlgate.config import Secrets
from qlgate.errors import ConfigError, QlError, UpstreamError
from qlgate.http.client import HttpRequest, HttpResponse
from qlgate.trust import Trust
from tests.conftest import Reply
from tests.oauth.conftest import oauth  # noqa: F401 - fixture

SECRET_TABLE = (
    "create table s.items on select get from '{config.apibase}/api/items?q={q}' using auth 'test.app' expires 60"
)


def _secret_api(request, body):
    auth = request.headers.get("Authorization", "")
    if auth.startswith("Bearer v^1.1"):
        return Reply(body=json.dumps({"secret": "deployer-only-data"}).encode(), delay=0.5)
    return Reply(status=401, body=b'{"err":"no"}')


def _config(server, upstream, tmp_path):
    return {
        "apibase": upstream.base,
        "auth": {"test.app": server.entry()},
        "oauth": {"cacheDir": str(tmp_path / "st")},
        "gateway": {"adhoc": {"credentials": []}},
    }


async def test_a_caller_cannot_forge_the_stand_in_of_a_credential(
    oauth,  # noqa: F811
    upstream,
    make_engine,
    tmp_path,
):
    upstream.handler("GET", "/api/items", _secret_api)
    engine = make_engine({"s.ql": SECRET_TABLE}, _config(oauth, upstream, tmp_path))
    callers = Trust.for_callers(engine.config.data, engine.tables.tables())
    deployer = await engine.execute('return select * from s.items where q = "x";')
    assert deployer.value == {"secret": "deployer-only-data"}
    script = (
        f"create table mine on select get from '{upstream.base}/api/items?q={{q}}' "
        "using headers 'Authorization' = 'Bearer <credential test.app>' expires 60;\n"
        'return select * from mine where q = "x";'
    )
    with pytest.raises(QlError) as caught:
        await engine.execute(script, trust=callers)
    assert "401" in caught.value.message


async def test_a_caller_never_joins_a_deployer_call_in_flight(
    oauth,  # noqa: F811
    upstream,
    make_engine,
    tmp_path,
):
    upstream.handler("GET", "/api/items", _secret_api)
    engine = make_engine({"s.ql": SECRET_TABLE.replace(" expires 60", "")}, _config(oauth, upstream, tmp_path))
    callers = Trust.for_callers(engine.config.data, engine.tables.tables())
    script = (
        f"create table mine on select get from '{upstream.base}/api/items?q={{q}}' "
        "using headers 'Authorization' = '{a}';\n"
        'return select * from mine where q = "x" and a = "Bearer <credential test.app>";'
    )
    await engine.execute('return select * from s.items where q = "warm";')  # the token is fetched

    async def caller():
        await asyncio.sleep(0.1)
        return await engine.execute(script, trust=callers)

    deployer, caller_run = await asyncio.gather(
        engine.execute('return select * from s.items where q = "x";'), caller(), return_exceptions=True
    )
    assert deployer.value == {"secret": "deployer-only-data"}
    assert isinstance(caller_run, QlError) and "401" in caller_run.message


def test_the_stand_in_depends_on_the_secret_and_the_credential():
    base = {"secret": "s3cret", "token_url": "https://a/token", "client_id": "id", "scopes": ["b", "a"]}
    one = credential_stand_in("test.app", **base)
    assert "test.app" not in one and one == credential_stand_in("test.app", **{**base, "scopes": ["a", "b"]})
    assert one != credential_stand_in("test.app", **{**base, "secret": "other"})
    assert one != credential_stand_in("test.app", **{**base, "token_url": "https://b/token"})
    assert one != credential_stand_in("test.app", **{**base, "client_id": "id2"})


async def test_host_user_agent_and_a_table_set_request_id_are_keyed(upstream, engine_for):
    def echo(request, body):
        return Reply(
            body=json.dumps({"host": request.headers.get("Host"), "ua": request.headers.get("User-Agent")}).encode()
        )

    upstream.handler("GET", "/e", echo)
    engine = engine_for(
        {
            "h.ql": "create table h.e on select get from '{config.base}/e' "
            "using headers 'Host' = '{tenant}.example', 'User-Agent' = '{ua}' expires 60"
        }
    )
    a = await engine.execute('return select * from h.e where tenant = "alice" and ua = "A";')
    b = await engine.execute('return select * from h.e where tenant = "bob" and ua = "B";')
    assert a.value == {"host": "alice.example", "ua": "A"}
    assert b.value == {"host": "bob.example", "ua": "B"}
    assert [c.source for c in b.diagnostics.calls] == ["sent"]


def test_the_request_id_is_left_out_only_when_it_is_the_engines():
    def key(rid, engine_rid):
        request = HttpRequest("GET", "https://a/x", {"request-id": rid, "connection": "close"}, None)
        return request_key(request, request_id_header="request-id", request_id=engine_rid)

    assert key("r1", "r1") == key("r2", "r2")  # the engine's own id: not keyed
    assert key("alice", "r1") != key("bob", "r1")  # a table's value: keyed


def test_hook_keys_differ_by_table_method_and_origin():
    one = hook_key("item:7", table="a.item", method="GET", url="https://a.example/x?id=7")
    assert one == hook_key("item:7", table="a.item", method="get", url="https://a.example/y")
    assert one != hook_key("item:7", table="b.item", method="GET", url="https://a.example/x?id=7")
    assert one != hook_key("item:7", table="a.item", method="HEAD", url="https://a.example/x?id=7")
    assert one != hook_key("item:7", table="a.item", method="GET", url="https://b.example/x?id=7")
    assert one != hook_key("item:7", table="a.item", method="GET", url="https://a.example/x", by_caller=True)


def test_an_entry_keeps_no_secret_url_and_no_credential_headers():
    secrets = Secrets({"k3y-from-config"})
    headers = {
        "content-type": "application/json",
        "x-session-id": "s1",
        "x-api-key": "k",
        "x-auth-token": "t",
        "authentication-info": "nextnonce=1",
        "etag": '"1"',
    }
    response = HttpResponse(200, headers, b"{}", "https://a/x?api_key=k3y-from-config&token=t0k&q=1", wire_bytes=2)
    entry = Entry.of(response, 0.0, 60, mask=secrets.mask)
    assert "k3y-from-config" not in entry.url and "t0k" not in entry.url and "q=1" in entry.url
    assert dict(entry.headers) == {"content-type": "application/json", "etag": '"1"'}
    assert b"k3y-from-config" not in Entry.loads(entry.dumps()).dumps()


async def test_the_memory_budget_is_honoured_within_twice():
    budget = 2_000_000
    backend = MemoryBackend(budget)
    headers = {f"x-h{i}": "v" for i in range(6)}
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for i in range(20_000):
        response = HttpResponse(200, dict(headers), b"x" * 10, f"https://a/{i}", wire_bytes=10)
        await backend.set(f"r:{i:064d}", Entry.of(response, 0.0, 60), 60)
    used = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert backend.bytes <= budget
    assert used <= 2 * budget, used


async def test_a_waiter_after_the_last_one_cancelled_starts_a_fresh_call():
    flight: SingleFlight[int] = SingleFlight(lambda v: v)
    started = []

    async def fetch():
        started.append(1)
        await asyncio.sleep(0.2)
        return len(started)

    first = asyncio.ensure_future(flight.run("k", fetch))
    await asyncio.sleep(0.01)
    first.cancel()
    second = asyncio.ensure_future(flight.run("k", fetch))
    await asyncio.sleep(0)
    assert (await second) == (2, False)


async def test_every_waiter_gets_a_copy_of_an_error_with_keyword_only_arguments():
    flight: SingleFlight[int] = SingleFlight(lambda v: v)

    async def fetch():
        await asyncio.sleep(0.05)
        raise UpstreamError("upstream answered 500", status=502, uri="https://a/x", upstream_status=500)

    outcomes = await asyncio.gather(flight.run("k", fetch), flight.run("k", fetch), return_exceptions=True)
    assert all(isinstance(o, UpstreamError) for o in outcomes), outcomes
    assert outcomes[0] is not outcomes[1] and outcomes[0].details is not outcomes[1].details
    assert outcomes[0].message == "upstream answered 500" and outcomes[0].details["uri"] == "https://a/x"


@pytest.mark.parametrize(
    "cache",
    [
        {"url": "http://x"},
        {"url": "localhost:6379"},
        {"backend": "redis", "url": "https://x"},
        {"maxBytes": float("inf")},
        {"maxBytes": float("nan")},
    ],
)
def test_bad_cache_settings_are_refused_at_load(cache):
    with pytest.raises(ConfigError):
        CacheSettings.from_config({"cache": cache})


@pytest.mark.parametrize("url", ["redis://h:6379/0", "rediss://h", "unix:///tmp/r.sock"])
def test_redis_urls_are_accepted(url):
    assert CacheSettings.from_config({"cache": {"url": url}}).url == url


@pytest.mark.parametrize(
    "url", ["https://a/x?%6Bey=zz9876", "https://a/x?%74oken=t-1", "https://a/x?a=1&sig%6Eature=abc"]
)
def test_a_credential_named_in_percent_escapes_is_found_too(url):
    """The quick scan before the query is parsed must read names as the parser will."""
    from qlgate.cache.keys import caller_credentials

    request = HttpRequest("GET", url, {"accept": "application/json"})
    assert caller_credentials(request, deployer_values=[]) != []
