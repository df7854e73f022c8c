"""The Redis cache across gateway processes (issue 17), on real parts: a real
``redis-server``, real ``qlgate serve`` processes on 127.0.0.1 — one with
``--workers 2`` and a second one on another port — and a loopback upstream that
counts its calls. One upstream call answers every gateway; an entry expires for
them all; Redis killed mid-test leaves the gateways answering from upstream with
a WARNING from ``qlgate.cache``.

The upstream runs in the test's event loop, so every request to a gateway is made
with aiohttp (never a blocking urllib call while a gateway may call upstream).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from qlgate.ports import free_port
from tests.conftest import Reply

ROOT = Path(__file__).resolve().parents[2]
TABLES = (
    "create table c.item on select get from '{config.base}/item?id={id}' expires 60\n"
    "create table s.item on select get from '{config.base}/short?id={id}' expires 1\n"
)
SCRIPT = 'return select * from {table} where id = "7";'
STARTUP_S = 30  # a gateway (each of its workers) answers /health within this
REQUEST_S = 15  # bound on one request to a gateway


def calls(upstream, path: str = "/item") -> int:
    return sum(1 for r in upstream.requests if r.path == path)


def numbered(upstream, path: str, delay: float = 0.0):
    """An upstream answer telling which call it was: equal answers came from one call."""

    def reply(request, body) -> Reply:
        return Reply(body=json.dumps({"id": request.query["id"], "call": calls(upstream, path)}).encode(), delay=delay)

    return reply


def parent(pid: int) -> int | None:
    """The parent of ``pid`` (procfs), None when it has gone."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (FileNotFoundError, ValueError, IndexError):
        return None


class Gateway:
    """One ``qlgate serve`` process (a supervisor with its workers under ``--workers N``),
    its stderr — the server's log and the access log — in a file."""

    def __init__(self, directory: Path, config: dict[str, Any], workers: int = 1):
        self.directory = directory
        self.port = free_port()
        self.workers = workers
        self.log = directory / f"serve-{self.port}.log"
        (directory / "tables").mkdir(exist_ok=True)
        (directory / "routes").mkdir(exist_ok=True)
        (directory / "tables" / "items.ql").write_text(TABLES)
        self.config = directory / f"config-{self.port}.json"
        self.config.write_text(json.dumps(config))
        self.process: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Gateway:
        # PYTHONPATH: the checkout's qlgate, wherever the working directory is
        path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
        with self.log.open("w") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "qlgate",
                    "serve",
                    "--tables",
                    str(self.directory / "tables"),
                    "--routes",
                    str(self.directory / "routes"),
                    "--config",
                    str(self.config),
                    "--port",
                    str(self.port),
                    "--workers",
                    str(self.workers),
                    "--disable-console",
                ],
                cwd=self.directory,
                env={**os.environ, "PYTHONPATH": path},
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        return self

    async def ready(self, session: aiohttp.ClientSession) -> None:
        """Every worker answers /health (a new connection each time: SO_REUSEPORT spreads them)."""
        pids: set[int] = set()
        deadline = time.monotonic() + STARTUP_S
        while len(pids) < self.workers:
            assert self.process is not None and self.process.poll() is None, self.log.read_text()
            assert time.monotonic() < deadline, f"{self.base}: {len(pids)} of {self.workers} workers answered"
            try:
                async with session.get(f"{self.base}/health", timeout=aiohttp.ClientTimeout(total=1)) as resp:
                    pid = (await resp.json())["pid"]
            except (aiohttp.ClientError, TimeoutError):
                await asyncio.sleep(0.1)
                continue
            # another process that took the free port between free_port() and the bind would answer too
            assert pid == self.process.pid or parent(pid) == self.process.pid, f"{self.base} is not ours"
            pids.add(pid)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)


class Pair:
    """Starts a ``serve --workers 2`` and a plain ``serve`` on another port with one
    config, and makes requests to them on a new connection each (SO_REUSEPORT
    spreads them over the workers)."""

    def __init__(self, directory: Path, config: dict[str, Any]):
        self.directory = directory
        self.config = config
        self.started: list[Gateway] = []
        self.session = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(force_close=True), timeout=aiohttp.ClientTimeout(total=REQUEST_S)
        )

    async def start(self, config: dict[str, Any] | None = None) -> tuple[Gateway, Gateway]:
        for name, workers in (("a", 2), ("b", 1)):
            directory = self.directory / name
            directory.mkdir()
            self.started.append(Gateway(directory, self.config if config is None else config, workers).start())
        for gateway in self.started:
            await gateway.ready(self.session)
        return self.started[0], self.started[1]

    async def ask(self, gateway: Gateway, table: str = "c.item") -> tuple[int, bytes]:
        async with self.session.get(f"{gateway.base}/q", params={"s": SCRIPT.format(table=table)}) as resp:
            return resp.status, await resp.read()

    async def close(self) -> None:
        await self.session.close()
        for gateway in self.started:
            gateway.stop()


@pytest.fixture
async def gateways(tmp_path, upstream, redis_server):
    """Two gateways caching in ``redis_server`` (this test's own instance) and reading
    ``upstream``; every process stopped at teardown."""
    pair = Pair(tmp_path, {"base": upstream.base, "cache": {"url": redis_server.url}})
    try:
        yield pair
    finally:
        await pair.close()


async def test_twenty_requests_over_three_processes_make_one_upstream_call(upstream, gateways):
    upstream.handler("GET", "/item", numbered(upstream, "/item", delay=0.3))  # slow: the burst overlaps it
    a, b = await gateways.start()
    # a burst of 12 at once over both gateways (and both of a's workers), then 8 one by one
    burst = await asyncio.gather(*(gateways.ask(a if i % 2 else b) for i in range(12)))
    answers = burst + [await gateways.ask(a if i % 2 else b) for i in range(8)]
    assert len(answers) == 20
    assert {status for status, _ in answers} == {200}
    assert {body for _, body in answers} == {b'{"id":"7","call":1}'}
    assert calls(upstream) == 1


async def test_an_entry_expires_for_every_gateway(upstream, gateways):
    upstream.handler("GET", "/short", numbered(upstream, "/short"))
    a, b = await gateways.start()
    assert await gateways.ask(a, "s.item") == (200, b'{"id":"7","call":1}')
    assert await gateways.ask(b, "s.item") == (200, b'{"id":"7","call":1}')
    assert calls(upstream, "/short") == 1
    await asyncio.sleep(1.3)  # past `expires 1`
    assert await gateways.ask(b, "s.item") == (200, b'{"id":"7","call":2}')
    assert await gateways.ask(a, "s.item") == (200, b'{"id":"7","call":2}')
    assert calls(upstream, "/short") == 2


async def test_redis_killed_mid_test_the_gateways_answer_from_upstream(upstream, gateways, redis_server):
    upstream.handler("GET", "/item", numbered(upstream, "/item"))
    a, b = await gateways.start()
    assert await gateways.ask(a) == (200, b'{"id":"7","call":1}')
    assert await gateways.ask(b) == (200, b'{"id":"7","call":1}')  # from Redis
    redis_server.stop()  # SIGKILL: this test's own instance
    for i in range(6):
        began = time.monotonic()
        status, body = await gateways.ask(a if i % 2 else b)
        assert status == 200, body
        answer = json.loads(body)
        assert answer == {"id": "7", "call": 2 + i} and "err" not in answer
        assert time.monotonic() - began < 5  # a refused connection is a miss, not a long wait
    assert calls(upstream) == 7
    deadline = time.monotonic() + 10
    while not all(" WARNING qlgate.cache " in g.log.read_text() for g in (a, b)):
        assert time.monotonic() < deadline, "no WARNING from qlgate.cache:\n" + a.log.read_text() + b.log.read_text()
        await asyncio.sleep(0.1)
    for gateway in (a, b):
        warning = next(line for line in gateway.log.read_text().splitlines() if " WARNING qlgate.cache " in line)
        assert "response cache unavailable, calls go upstream" in warning
