"""Shared fixtures: a real HTTP upstream on 127.0.0.1 that records every
request, and an engine factory that tears its connection pool down.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import gzip
import json
import os
import uuid
import zlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from qlgate.engine.engine import Engine
from qlgate.jobs.zk.session import zk_client
from tests.gateway_server import GatewayTestServer
from tests.servers.zookeeper import LocalZooKeeper


@dataclass
class Recorded:
    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    body: bytes
    started: float
    ended: float = 0.0


@dataclass
class Reply:
    status: int = 200
    body: bytes = b""
    content_type: str | None = "application/json"
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    encoding: str | None = None


class Upstream:
    """A loopback HTTP server; tests say what each path answers and read back
    what it received (method, path, query, headers, body, timing)."""

    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self._routes: dict[tuple[str, str], Callable[[web.Request, bytes], Reply] | Reply] = {}
        self.in_flight = 0
        self.max_in_flight = 0
        self.base = ""
        self._runner: web.AppRunner | None = None

    def reply(
        self,
        method: str,
        path: str,
        *,
        json_body: Any = None,
        text: str | None = None,
        body: bytes | None = None,
        status: int = 200,
        content_type: str | None = "application/json",
        headers: dict[str, str] | None = None,
        delay: float = 0.0,
        encoding: str | None = None,
    ) -> None:
        if json_body is not None:
            payload = json.dumps(json_body).encode()
        elif text is not None:
            payload = text.encode("utf-8")
        else:
            payload = body or b""
        self._routes[(method.upper(), path)] = Reply(status, payload, content_type, headers or {}, delay, encoding)

    def handler(self, method: str, path: str, fn: Callable[[web.Request, bytes], Reply]) -> None:
        self._routes[(method.upper(), path)] = fn

    def echo(self, method: str, path: str, content_type: str = "application/json") -> None:
        self.handler(method, path, lambda req, body: Reply(body=body, content_type=content_type))

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        loop = asyncio.get_running_loop()
        body = await request.read()
        record = Recorded(
            request.method,
            request.path,
            dict(request.query),
            {k.lower(): v for k, v in request.headers.items()},
            body,
            loop.time(),
        )
        self.requests.append(record)
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            route = self._routes.get((request.method, request.path)) or self._routes.get(("*", request.path))
            if route is None:
                return web.Response(status=404, text=f"no route for {request.method} {request.path}")
            reply = route(request, body) if callable(route) else route
            if reply.delay:
                await asyncio.sleep(reply.delay)
            payload = reply.body
            headers = dict(reply.headers)
            if reply.encoding == "gzip":
                payload = gzip.compress(payload)
                headers["Content-Encoding"] = "gzip"
            elif reply.encoding == "deflate":
                payload = zlib.compress(payload)
                headers["Content-Encoding"] = "deflate"
            if reply.content_type:
                headers["Content-Type"] = reply.content_type
            return web.Response(status=reply.status, body=payload, headers=headers)
        finally:
            self.in_flight -= 1
            record.ended = loop.time()

    async def start(self) -> Upstream:
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.base = f"http://127.0.0.1:{port}"
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    def paths(self) -> list[str]:
        return [r.path for r in self.requests]


@contextlib.asynccontextmanager
async def served_server(engine: Engine) -> AsyncIterator[tuple[GatewayTestServer, aiohttp.ClientSession]]:
    """The gateway's app over ``engine`` on a loopback port, and a session whose paths
    are relative to it."""
    from qlgate.server.app import build_app

    server = GatewayTestServer(build_app(engine), host="127.0.0.1")
    await server.start_server()
    try:
        async with aiohttp.ClientSession(base_url=str(server.make_url(""))) as session:
            yield server, session
    finally:
        await server.close()


@contextlib.asynccontextmanager
async def served(engine: Engine) -> AsyncIterator[aiohttp.ClientSession]:
    """``served_server``'s session alone: what most gateway tests talk through."""
    async with served_server(engine) as (_, session):
        yield session


@pytest.fixture
async def upstream():
    server = await Upstream().start()
    yield server
    await server.stop()


@pytest.fixture
async def make_engine(tmp_path: Path):
    """Build engines with tables/routes written into a temp dir; closed afterwards."""
    engines: list[Engine] = []

    def make(
        tables: dict[str, str] | None = None, config: dict | None = None, routes: dict[str, str] | None = None
    ) -> Engine:
        tables_dir, routes_dir = tmp_path / "tables", tmp_path / "routes"
        for root, entries in ((tables_dir, tables), (routes_dir, routes)):
            root.mkdir(exist_ok=True)
            for name, text in (entries or {}).items():
                path = root / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
        engine = Engine(tables=tables_dir, routes=routes_dir, config=config or {})
        engines.append(engine)
        return engine

    yield make
    for engine in engines:
        await engine.close()


@pytest.fixture
def engine_for(upstream, make_engine):
    """An engine whose config has ``base`` = the upstream's URL (``{config.base}``)."""

    def build(tables: dict[str, str] | None = None, config: dict | None = None, **kw: Any) -> Engine:
        return make_engine(tables, {"base": upstream.base, **(config or {})}, **kw)

    return build


async def run(engine: Engine, script: str, **kw: Any) -> Any:
    return (await engine.execute(script, **kw)).value


async def cyclic_garbage(step: Callable[[], Any], times: int = 5) -> list[str]:
    """The types of the objects that ``times`` awaits of ``step()`` left in reference
    cycles: garbage only the cycle collector frees. Warm ``step`` up first (compiled
    scripts, pools): what a first run builds to keep is not garbage."""
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for _ in range(times):
            await step()
        gc.collect()
        return [type(o).__qualname__ for o in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


@pytest.fixture
async def emulator():
    """The built-in eBay emulator on 127.0.0.1 (``emulator.config()`` points tables at it)."""
    from qlgate_ebay_emulator.app import RunningSandbox

    running = await RunningSandbox().start()
    yield running
    await running.stop()


@pytest.fixture(autouse=True)
def shared_bodies_unchanged(request):
    """No run changes a decoded upstream body in place: the readers of one shared answer
    share its tree (``qlgate/tables/response.py``), so a change would reach another
    caller's result. Every test checks every body its in-process runs decoded."""
    from qlgate.tables import response

    if request.node.get_closest_marker("changes_results"):
        yield
        return
    response.shared_bodies = seen = []
    yield
    response.shared_bodies = None
    changed = [table for body, snapshot, table in seen if response._snapshot(body) != snapshot]
    assert not changed, f"a run changed the decoded answer of {changed[0]} in place"


# The emulator server (emulator/qlgate_ebay_emulator/server.py) outlives the run that
# starts it, in the user's runtime directory: the suite's runs build their emulators
# themselves, and tests/sandbox/test_emulator_server.py starts one in its own directory.
os.environ["QLGATE_EMULATOR_SERVER"] = "off"


@pytest.fixture(scope="session", autouse=True)
def session_jobs_database(tmp_path_factory):
    """The same, for gateways that module- and session-scoped fixtures start (before any
    test's own file is chosen)."""
    previous = os.environ.get("QLGATE_JOBS_DATABASE")
    os.environ["QLGATE_JOBS_DATABASE"] = str(tmp_path_factory.mktemp("jobs") / "jobs.sqlite")
    yield
    if previous is None:
        os.environ.pop("QLGATE_JOBS_DATABASE", None)
    else:
        os.environ["QLGATE_JOBS_DATABASE"] = previous


@pytest.fixture(autouse=True)
def jobs_database(session_jobs_database, tmp_path_factory, monkeypatch):
    """Gateways and runs started by a test keep their embedded job database out of the
    checkout, in a file of the test's own: the limits and rates a test sets there hold
    for every call its processes make (qlgate/limits), and must not reach the next test."""
    path = tmp_path_factory.mktemp("jobs") / "jobs.sqlite"
    monkeypatch.setenv("QLGATE_JOBS_DATABASE", str(path))
    return path


# ------------------------------------------------------------------ ZooKeeper (Debian's package) and
# the partner API that job tests call; used by tests/jobs and tests/server


@pytest.fixture(scope="session")
def zookeeper():
    server = LocalZooKeeper().start()
    yield server
    server.close()


@pytest.fixture
def zk_hosts(zookeeper) -> str:
    """Connection string of a namespace of its own (a chroot), so tests never meet."""
    root = zk_client(zookeeper.hosts)
    root.start(10)
    namespace = f"/test-{uuid.uuid4().hex[:12]}"
    root.ensure_path(namespace)
    root.stop()
    root.close()
    return zookeeper.hosts + namespace


@pytest.fixture
def zk(zk_hosts):
    client = zk_client(zk_hosts)
    client.start(10)
    yield client
    client.stop()
    client.close()


@pytest.fixture
def observer():
    """A partner API counting its own concurrent calls per type (tests/jobs/observer.py)."""
    from tests.jobs.observer import Observer

    server = Observer().start()
    yield server
    server.stop()


# ------------------------------------------------------------------ PostgreSQL (Debian's package), for
# the archive on a real server: tests/jobs/test_archive.py


@pytest.fixture(scope="session")
def postgres():
    """One server for the session, on a free port with a temporary data directory
    (run as the ``postgres`` user when the tests run as root: tests/servers/postgres.py)."""
    from tests.servers.postgres import LocalPostgres

    server = LocalPostgres().start()
    yield server
    server.close()


@pytest.fixture
def pg_url(postgres):
    """The URL of a database of its own, so tests never meet; dropped afterwards."""
    name = f"test_{uuid.uuid4().hex[:12]}"
    url = postgres.create_database(name)
    yield url
    postgres.drop_database(name)


# ------------------------------------------------------------------ a real ZooKeeper ensemble (three
# QuorumPeerMain processes) for chaos tests that crash, stop and partition its servers


@pytest.fixture
def ensemble(tmp_path):
    """A 3-server ensemble of the test's own: kill, stop and restart its servers at will.
    Servers start together (about 1 s); their data and logs stay in the test's tmp_path."""
    from tests.servers.zookeeper import LocalEnsemble

    servers = LocalEnsemble(3, data_dir=tmp_path / "ensemble").start()
    try:
        yield servers
    finally:
        servers.close()


@pytest.fixture(scope="session")
def shared_ensemble(tmp_path_factory):
    """One ensemble for tests that leave its servers alone (partitions staged with proxies,
    many clients): never kill or stop its servers; keep to a path of the test's own."""
    from tests.servers.zookeeper import LocalEnsemble

    servers = LocalEnsemble(3, data_dir=tmp_path_factory.mktemp("shared-ensemble")).start()
    try:
        yield servers
    finally:
        servers.close()
