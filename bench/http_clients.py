"""CPU per upstream call of each HTTP client candidate, side by side (issue 18, item 1):

    python bench/http_clients.py [--calls 20000] [--window 50] [--rounds 3]

Each candidate sends ``--calls`` keep-alive GETs to the same loopback upstream
(``bench/upstream.py``, its own process, ``/fast``: a ~700-byte JSON answer), at most
``--window`` in flight, from one process on uvloop; the figure is the client process's
CPU time per call (``time.process_time``), so a busy machine slows the run but moves the
figure less. Candidates run interleaved, round after round, and the median round counts:

- ``qlgate HttpClient``: what the engine sends with (``qlgate/http/``);
- ``qlgate HttpClient, TLS``: the same over HTTPS to a TLS upstream (a CA made here);
- ``aiohttp ClientSession``: the client qlgate used before, one pooled session;
- ``qlgate wire only``: the connection protocol without redirects, decoding and errors.

Target: ≤ 50 µs per call for the engine (``bench/engine_bench.py`` measures that one).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))

from qlgate.http.client import HttpClient, HttpRequest  # noqa: E402
from qlgate.http.head import serialise, split_url  # noqa: E402
from qlgate.http.pool import Pool  # noqa: E402

HEADERS = {"user-agent": "qlgate/bench", "accept": "application/json", "accept-encoding": "gzip, deflate"}


async def windowed(calls: int, window: int, one) -> None:
    gate = asyncio.Semaphore(window)

    async def run(i: int) -> None:
        async with gate:
            await one(i)

    await asyncio.gather(*(run(i) for i in range(calls)))


def tls_files(directory: str) -> tuple[str, str, str]:
    """A CA and a certificate for 127.0.0.1, made with ``trustme`` (a test dependency)."""
    import trustme

    ca = trustme.CA()
    cert = ca.issue_cert("127.0.0.1")
    ca_path, chain_path, key_path = (os.path.join(directory, n) for n in ("ca.pem", "chain.pem", "key.pem"))
    ca.cert_pem.write_to_path(ca_path)
    cert.private_key_pem.write_to_path(key_path)
    with open(chain_path, "wb") as f:
        for blob in cert.cert_chain_pems:
            f.write(blob.bytes())
    return ca_path, chain_path, key_path


async def main(args: argparse.Namespace) -> None:
    tmp = tempfile.mkdtemp()
    ca_path, chain_path, key_path = tls_files(tmp)
    plain = subprocess.Popen([sys.executable, str(ROOT / "upstream.py")], stdout=subprocess.PIPE, text=True)
    tls = subprocess.Popen(
        [sys.executable, str(ROOT / "upstream.py"), "--tls", chain_path, key_path], stdout=subprocess.PIPE, text=True
    )
    try:
        base = f"http://127.0.0.1:{int(plain.stdout.readline())}"
        tls_base = f"https://127.0.0.1:{int(tls.stdout.readline())}"
        trusting = ssl.create_default_context(cafile=ca_path)
        ours = HttpClient(pool_size=256)
        ours_tls = HttpClient(pool_size=256, ssl_context=trusting)
        pool = Pool(limit=256)
        session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=256), auto_decompress=False)

        async def qlgate_call(i: int) -> None:
            await ours.send(HttpRequest("GET", f"{base}/fast?q={i}", dict(HEADERS)))

        async def qlgate_tls_call(i: int) -> None:
            await ours_tls.send(HttpRequest("GET", f"{tls_base}/fast?q={i}", dict(HEADERS)))

        async def aiohttp_call(i: int) -> None:
            async with session.get(f"{base}/fast?q={i}", headers=HEADERS) as r:
                await r.read()

        async def wire_call(i: int) -> None:
            origin, target = split_url(f"{base}/fast?q={i}")
            key = (origin.scheme, origin.host, origin.port, None)
            conn, _ = await pool.acquire(key, None, 10.0)
            raw = await conn.exchange(serialise("GET", origin, target, HEADERS, None), 10.0, 1 << 20, False)
            pool.release(key, conn, raw.keep_alive)

        candidates = {
            "qlgate HttpClient": qlgate_call,
            "qlgate HttpClient, TLS": qlgate_tls_call,
            "aiohttp ClientSession": aiohttp_call,
            "qlgate wire only": wire_call,
        }
        cpu: dict[str, list[float]] = {name: [] for name in candidates}
        for one in candidates.values():  # warm: connections open, code paths hot
            await windowed(min(args.calls, 2000), args.window, one)
        for _ in range(args.rounds):
            for name, one in candidates.items():
                start = time.process_time()
                await windowed(args.calls, args.window, one)
                cpu[name].append((time.process_time() - start) / args.calls * 1e6)
        await session.close()
        await ours.close()
        await ours_tls.close()
        pool.close()
    finally:
        for process in (plain, tls):
            process.terminate()
            process.wait(5)
    print(f"CPU of the client process per keep-alive GET ({args.calls} calls, window {args.window}, median round):")
    baseline = statistics.median(cpu["aiohttp ClientSession"])
    for name, values in cpu.items():
        value = statistics.median(values)
        print(f"  {name:<24} {value:7.1f} µs   (×{value / baseline:.2f} of aiohttp)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--window", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3)
    arguments = parser.parse_args()
    print(
        f"command: python bench/http_clients.py --calls {arguments.calls} --window {arguments.window} "
        f"--rounds {arguments.rounds}"
    )
    from qlgate.loop import run

    run(main(arguments))
