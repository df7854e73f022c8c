"""A bounded loopback load test: 1,000 concurrent connections through a real
gateway process, each waiting on a 200 ms upstream, all answered correctly."""

import asyncio
import json
import signal
import subprocess
import sys
import time

import aiohttp

from tests.sandbox.test_cli import free_port

CONNECTIONS = 1000


async def test_a_thousand_concurrent_connections(upstream, tmp_path):
    upstream.reply("GET", "/slow", json_body={"ok": True}, delay=0.2)
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "slow.ql").write_text("create table slow on select get from '{config.base}/slow?n={n}'")
    (tmp_path / "config.json").write_text(json.dumps({"base": upstream.base}))
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "qlgate",
            "serve",
            "--tables",
            str(tmp_path / "tables"),
            "--config",
            str(tmp_path / "config.json"),
            "--port",
            str(port),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        async with aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=CONNECTIONS), timeout=aiohttp.ClientTimeout(total=60)
        ) as session:
            deadline = time.monotonic() + 20
            while True:
                try:
                    async with session.get(f"{base}/health") as resp:
                        if resp.status == 200:
                            break
                except aiohttp.ClientError:
                    assert time.monotonic() < deadline, "gateway did not start"
                    await asyncio.sleep(0.1)

            async def one(i: int) -> tuple[int, object]:
                async with session.get(f"{base}/q", params={"s": f"return select ok from slow where n = {i}"}) as resp:
                    return resp.status, await resp.json()

            started = time.monotonic()
            results = await asyncio.gather(*(one(i) for i in range(CONNECTIONS)))
            elapsed = time.monotonic() - started
            assert [r for r in results if r != (200, [True])] == []
            assert upstream.max_in_flight > 100  # the gateway really held many at once
            assert elapsed < 30
            async with session.get(f"{base}/health") as resp:
                assert resp.status == 200
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)
