"""``GET /metrics`` of one gateway process, read with prometheus_client's own parser:
requests by endpoint and route, upstream calls by outcome (a cache hit counted as a
hit, not a call), latency histograms, refusals by limits, the admin scope, and no
secret or URL in any label."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from qlgate.engine.engine import Engine
from qlgate.limits.open import close_limits, host_limits
from qlgate.server.app import build_app
from qlgate.server.metrics import CALLER
from qlgate.server.metrics_live import OTHER
from tests.conftest import served

TABLES = {
    "items.ql": "create table shop.items on select get from '{config.base}/items?id={id}&key={config.secretKey}' "
    "expires 60",
    "slow.ql": "create table paused.items on select get from '{config.base}/items?id={id}'",
}
ROUTES = {"items.ql": 'return select * from shop.items where id = "{id}" via route "/items/{id}" using method get'}


def samples(text: str) -> dict[tuple[str, frozenset], float]:
    """Every sample of an exposition, by name and labels (the official parser: a format error raises)."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return found


def value(found, name: str, **labels: str) -> float:
    return found.get((name, frozenset(labels.items())), 0.0)


async def scrape(session, **kw) -> tuple[int, str]:
    async with session.get("/metrics", **kw) as resp:
        return resp.status, await resp.text()


async def test_requests_calls_cache_hits_and_histograms(upstream, engine_for):
    upstream.reply("GET", "/items", json_body={"id": 1})
    engine = engine_for(TABLES, config={"secretKey": "s3cr3t-value"}, routes=ROUTES)
    async with served(engine) as session:
        for _ in range(3):  # one call sent, then two hits from the cache
            async with session.get("/items/7") as resp:
                assert resp.status == 200
        async with session.get("/q", params={"s": 'return select * from shop.items where id = "8";'}) as resp:
            assert resp.status == 200
        async with session.get("/nowhere") as resp:
            assert resp.status == 404
        status, text = await scrape(session)
    assert status == 200
    found = samples(text)
    route = "GET /items/{id}"
    assert value(found, "qlgate_requests_total", endpoint="/{tail}", route=route, method="GET", status="200") == 3
    assert value(found, "qlgate_requests_total", endpoint="/q", route="", method="GET", status="200") == 1
    assert value(found, "qlgate_requests_total", endpoint="/{tail}", route="", method="GET", status="404") == 1
    assert value(found, "qlgate_upstream_calls_total", api="shop", table="shop.items", outcome="sent") == 2
    assert value(found, "qlgate_upstream_calls_total", api="shop", table="shop.items", outcome="cache") == 2
    assert value(found, "qlgate_upstream_responses_total", api="shop", table="shop.items", code="2xx") == 2
    assert value(found, "qlgate_upstream_call_duration_seconds_count", api="shop", table="shop.items") == 2
    inf = value(found, "qlgate_upstream_call_duration_seconds_bucket", api="shop", table="shop.items", le="+Inf")
    assert inf == 2
    assert value(found, "qlgate_request_duration_seconds_count", endpoint="/{tail}", route=route) == 3
    assert value(found, "qlgate_cache_hit_ratio") == pytest.approx(0.5)
    assert value(found, "qlgate_cache_entries") >= 1
    assert value(found, "qlgate_process_resident_memory_bytes", worker="0") > 1_000_000
    assert value(found, "qlgate_response_bytes_total", endpoint="/{tail}") > 0
    # the config's secret is in the URL the table sends; never in the metrics, nor any path or id
    assert "s3cr3t" not in text and "/items/7" not in text and 'id="' not in text


async def test_a_callers_own_table_is_one_label_whatever_its_name(upstream, engine_for):
    upstream.reply("GET", "/items", json_body={"id": 1})
    engine = engine_for(TABLES)
    async with served(engine) as session:
        for name in ("mine.a1", "mine.b2"):
            script = f"create table {name} on select get from '{upstream.base}/items'; return select * from {name};"
            async with session.post("/q", data=script, headers={"Content-Type": "text/plain"}) as resp:
                assert resp.status == 200, await resp.text()
        _, text = await scrape(session)
    assert "mine.a1" not in text and "mine.b2" not in text
    found = samples(text)
    sent = value(found, "qlgate_upstream_calls_total", api=CALLER, table=CALLER, outcome="sent")
    assert sent == 2  # both names: one label


@pytest.fixture
async def limited_engine(tmp_path: Path, upstream):
    (tmp_path / "tables").mkdir()
    for name, text in TABLES.items():
        (tmp_path / "tables" / name).write_text(text)
    config = {"base": upstream.base}
    database = tmp_path / "jobs.sqlite"
    engine = Engine(tables=tmp_path / "tables", config=config, limits=host_limits(config, database))
    from qlgate.jobs.local import LocalJobs

    records = LocalJobs(database)
    records.set_limit("paused", 0)
    yield engine
    records.close()
    close_limits(engine.limits)
    await engine.close()


async def test_a_refusal_by_limits_is_counted_by_type(upstream, limited_engine):
    upstream.reply("GET", "/items", json_body={"id": 1})
    async with served(limited_engine) as session:
        async with session.get("/q", params={"s": 'return select * from paused.items where id = "1";'}) as resp:
            assert resp.status == 429
        _, text = await scrape(session)
    found = samples(text)
    assert value(found, "qlgate_limit_refusals_total", api="paused", limit="inFlight") == 1
    assert value(found, "qlgate_requests_total", endpoint="/q", route="", method="GET", status="429") == 1
    assert not any(r.path == "/items" for r in upstream.requests)


async def test_metrics_need_the_admin_scope_when_keys_are_configured(make_engine):
    auth = {
        "keys": [
            {"name": "ops", "key": "ops-key-123456789", "scopes": ["admin"]},
            {"name": "app", "key": "app-key-123456789", "scopes": ["query", "routes"]},
        ]
    }
    engine = make_engine({}, {"gateway": {"auth": auth}})
    async with served(engine) as session:
        assert (await scrape(session))[0] == 401
        assert (await scrape(session, headers={"Authorization": "Bearer app-key-123456789"}))[0] == 403
        status, text = await scrape(session, headers={"Authorization": "Bearer ops-key-123456789"})
    assert status == 200 and "qlgate_requests_total" in text
    assert "key-123456789" not in text


async def test_jobs_limits_and_quota_are_the_deployments(upstream, tmp_path):
    """The embedded job backend's jobs by type and the limits store's quota, read when scraped."""
    from qlgate.jobs.factory import open_jobs
    from qlgate.jobs.local import LocalJobs
    from qlgate.limits.rate import Rate
    from qlgate.workspace import Workspace, load_config
    from tests.gateway_server import GatewayTestServer

    database = tmp_path / "jobs.sqlite"
    records = LocalJobs(database)
    records.set_limit("shop", 2)
    records.set_rate("shop", Rate(1000, "day"))
    records.close()
    upstream.reply("GET", "/items", json_body={"id": 1})
    tables = tmp_path / "tables"
    tables.mkdir()
    for name, text in TABLES.items():
        (tables / name).write_text(text)
    config = load_config({"base": upstream.base, "secretKey": "k", "jobs": {"database": str(database)}})
    # as the gateway starts: the job store first, its limits handed to the engine it opens
    jobs = open_jobs(SimpleNamespace(zookeeper=None), config)
    engine = Engine(tables=tables, config=config, limits=jobs.limits)
    jobs.serve(Workspace.of(engine), runs_jobs=False)
    gateway = build_app(engine, jobs=jobs.backend)
    gateway.on_close(lambda: jobs.stop(gateway))
    async with GatewayTestServer(gateway) as server, aiohttp.ClientSession(base_url=server.make_url("")) as session:
        jobs_sent = (
            {"script": 'return select * from shop.items where id = "1";'},  # its type: shop
            {"script": 'return "no table";', "types": ["made.up.by.caller"]},  # a type its submitter named
        )
        for body in jobs_sent:
            async with session.post("/jobs", json=body) as resp:
                assert resp.status in (200, 201, 202), await resp.text()
        async with session.get("/q", params={"s": 'return select * from shop.items where id = "3";'}) as resp:
            assert resp.status == 200, await resp.text()
        _, text = await scrape(session)
    await engine.close()
    found = samples(text)
    assert value(found, "qlgate_jobs", api="shop", state="waiting") == 1  # not run: runs_jobs=False
    assert value(found, "qlgate_jobs", api=OTHER, state="waiting") == 1
    assert "made.up.by.caller" not in text
    assert value(found, "qlgate_jobs_limit", api="shop") == 2
    assert value(found, "qlgate_quota_left_today", api="shop") == 999
