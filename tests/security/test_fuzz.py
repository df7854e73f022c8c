"""Random and mutated scripts through ``POST /q`` and ``POST /jobs`` (issue 13):
whatever a caller sends, the answer is a result or a typed error in the one
JSON shape — never a 500 — and ``/health`` stays live."""

from __future__ import annotations

import json
import time
from pathlib import Path

import aiohttp
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qlgate.jobs.local import LocalJobs
from qlgate.jobs.runner import EngineRunner
from qlgate.server.app import build_app
from tests.gateway_server import GatewayTestServer

ROOT = Path(__file__).resolve().parents[2]
TABLES = {
    "items.ql": "create table items on select get from '{config.base}/items?q={q}&n={^n}' resultset 'items' "
    "on insert post to '{config.base}/items' using bodyTemplate 'b.mu' type 'application/json'",
    "b.mu": '{"q": "{{params.q}}"}',
}
SEEDS = [
    'return select * from items where q = "x" and n = 1;',
    'a = select items[0] from items where q = "a" and n = 2;\nreturn {"a": "{a}", "b": [1, 2.5e3, true, null]};',
    'ids = ["1", "2"]; r = select * from items where q in ("{ids}") and n = 1; return "{r}";',
    'if (x) { y = [1]; } else { y = {"k": "v"}; }\nreturn "{y}";',
    'try { a = select * from items where q = "x" and n = 1; } catch (a) { b = 1; } finally { c = 2; }\nreturn 1;',
    "create table t on select get from '{config.base}/x?a={a}' using defaults a = 'b' resultset 'r'; "
    "return select * from t;",
    'insert into items (q) values ("{^z}");',
    "show tables; describe items; return select * from items where q = 'it''s' limit 2 offset 1;",
    *(p.read_text() for p in sorted((ROOT / "scripts" / "ebay").glob("*.ql"))),
]
PIECES = [
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    '"',
    "'",
    ";",
    ",",
    "=",
    "||",
    "&&",
    "!",
    "^",
    "|",
    "`",
    "#",
    "\\u",
    "\\ud800",
    "{config}",
    "{config.svc.token}",
    "select",
    "from",
    "where",
    "in",
    "insert",
    "into",
    "values",
    "create table",
    'require("os")',
    "using patch 'x.py'",
    "1e999",
    "-0",
    "\x00",
    "\r\n",
    "\u2028",
    "é",
    "--",
    "/*",
    "*/",
    "via route '/x'",
    "limit",
    "timeout 1",
    "9" * 40,
    "using headers 'A' = 'b\x01c'",
    "using headers 'Host' = 'x'",
    "using headers '{a}' = '\r\n'",
    'config = {"a": 1};',
    "describe items;",
    "on select post to '{config.base}/items'",
    "{x[?(@ > 1e999)]}",
    "{x[(1e999)]}",
    "{x..*}",
    "{x[*].a}",
    "[?(",
    "[(@.length-1)]",
    "@.a - 1",
]


@st.composite
def scripts(draw) -> str:
    """A seed with a few edits (cut, repeat, insert a piece), or pieces strung together."""
    if draw(st.booleans()):
        return "".join(draw(st.lists(st.sampled_from(PIECES) | st.text(max_size=4), max_size=30)))
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        edit = draw(st.sampled_from(["cut", "repeat", "insert"]))
        if edit == "cut":
            text = text[:at] + text[at + draw(st.integers(1, 12)) :]
        elif edit == "repeat":
            text = text[:at] + text[at : at + 20] * draw(st.integers(2, 50)) + text[at:]
        else:
            text = text[:at] + draw(st.sampled_from(PIECES)) + text[at:]
    return text


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A gateway with the embedded job backend, on its own loop for the module."""
    import asyncio
    import threading

    from tests.conftest import Upstream

    tmp = tmp_path_factory.mktemp("fuzz")
    (tmp / "tables").mkdir()
    for name, text in TABLES.items():
        (tmp / "tables" / name).write_text(text)
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()

    async def start():
        from qlgate.engine.engine import Engine

        upstream = await Upstream().start()
        upstream.reply("GET", "/items", json_body={"items": [{"id": 1}]})
        upstream.reply("POST", "/items", json_body={"ok": True})
        engine = Engine(tables=tmp / "tables", config={"base": upstream.base, "svc": {"token": "fuzz-secret-123"}})
        jobs = LocalJobs(tmp / "jobs.sqlite", EngineRunner(engine), slots=2).start()
        server = GatewayTestServer(build_app(engine, jobs=jobs), host="127.0.0.1")
        await server.start_server()
        return upstream, jobs, server

    upstream, jobs, server = asyncio.run_coroutine_threadsafe(start(), loop).result(30)
    yield str(server.make_url(""))

    async def stop():
        await server.close()
        await jobs.stop()
        jobs.close()
        await upstream.stop()

    asyncio.run_coroutine_threadsafe(stop(), loop).result(30)
    loop.call_soon_threadsafe(loop.stop)


async def _check(client: aiohttp.ClientSession, method: str, path: str, **kwargs) -> None:
    async with client.request(method, path, **kwargs) as resp:
        raw = await resp.read()
        status = resp.status
    assert status != 500 and status < 600, (kwargs, raw[:300])
    body = json.loads(raw)
    if status >= 400:
        assert isinstance(body, dict) and isinstance(body.get("err"), str), (kwargs, body)
        assert "internal error" not in body["err"] and "fuzz-secret-123" not in raw.decode()
    started = time.perf_counter()
    async with client.get("/health") as resp:
        assert resp.status == 200
    assert time.perf_counter() - started < 1.0


@settings(
    max_examples=120,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(script=scripts())
async def test_fuzzed_scripts_through_q_and_jobs(served, script):
    async with aiohttp.ClientSession(base_url=served) as client:
        await _check(
            client,
            "POST",
            "/q",
            data=script.encode("utf-8", "surrogatepass"),
            headers={"Content-Type": "text/plain; charset=utf-8"},
        )
        await _check(
            client, "GET", "/q", params={"s": script.encode("utf-8", "surrogatepass").decode("utf-8", "replace")}
        )
        await _check(
            client,
            "POST",
            "/jobs",
            data=json.dumps({"script": script, "types": ["items"], "max_attempts": 1, "max_seconds": 5}),
            headers={"Content-Type": "application/json"},
        )
