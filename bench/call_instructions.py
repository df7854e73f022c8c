"""The engine's own work per upstream call, and a served request's, counted in
instructions (issue 29): numbers the machine's load cannot move, where CPU time on this
shared 2-core host varies 2× from one run to the next. Counted by valgrind's callgrind
(Debian's ``valgrind``), against another commit of this repository checked out beside it
in the same go:

    python bench/call_instructions.py [--against REV] [--rounds 50] [--requests 200]

What is counted: ``select id from t where id in (…)`` over 100 values every round, each
value new (nothing shared, nothing cached), the engine's HTTP client answering each
request at once with a 20-row JSON answer, so what is left is the engine alone: building
each request, its call path, decoding and projecting its answer, merging the fan-out.
Each tree runs twice, with 0 and with ``--rounds`` measured rounds after the same 20
warm-up rounds; the difference divided by the calls is the cost of one call, start-up and
imports taken out.

And a served request: ``/q?s=select * from t where q = "x<N>"``, every request its own,
through the gateway's own server in the process (``GatewayTestServer``), from a keep-alive
client in the same process to a loopback upstream answering at once in the same process
(10 rows of ~350 bytes): the gateway's whole work per request, plus a small client's and
upstream's, which are the same on both sides.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CALLS_PER_ROUND = 100

HARNESS = textwrap.dedent(
    """
    import asyncio, json, sys
    from pathlib import Path
    tree, rounds, tables = Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
    sys.path.insert(0, str(tree))
    from qlgate.engine.engine import Engine
    from qlgate.http.client import HttpClient, HttpResponse
    BODY = json.dumps({"items": [{"id": str(i), "title": f"item {i}", "price": i * 1.5} for i in range(20)]}).encode()
    async def at_once(self, request):
        return HttpResponse(200, {"content-type": "application/json"}, BODY, request.url, wire_bytes=len(BODY))
    HttpClient.send = at_once
    async def main():
        async with Engine(tables=tables, config={}) as engine:
            for r in range(20 + rounds):
                ids = [f"{r}-{i}" for i in range(100)]
                await engine.execute('return select id from t where id in ("{ids}")', context={"ids": ids})
    asyncio.run(main())
    """
)


SERVED = textwrap.dedent(
    r"""
    import asyncio, json, sys, urllib.parse
    from pathlib import Path
    tree, count, tables = Path(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
    sys.path.insert(0, str(tree))
    from qlgate.engine.engine import Engine
    from qlgate.server.app import build_app
    from tests.gateway_server import GatewayTestServer
    ROWS = [{"id": str(1000 + i), "title": f"item {i}", "price": {"value": i * 1.5}, "extra": "x" * 300} for i in range(10)]
    BODY = json.dumps({"items": ROWS}).encode()
    class Upstream(asyncio.Protocol):
        def connection_made(self, transport):
            self.transport, self.buffer = transport, b""
        def data_received(self, data):
            self.buffer += data
            while b"\r\n\r\n" in self.buffer:
                _, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
                head = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n"
                self.transport.write(head % len(BODY) + BODY)
    async def main():
        loop = asyncio.get_running_loop()
        upstream = await loop.create_server(Upstream, "127.0.0.1", 0)
        base = f"http://127.0.0.1:{upstream.sockets[0].getsockname()[1]}"
        engine = Engine(tables=tables, config={"base": base})
        async with GatewayTestServer(build_app(engine)) as server:
            url = urllib.parse.urlsplit(str(server.make_url("/")))
            reader, writer = await asyncio.open_connection(url.hostname, url.port)
            for i in range(20 + count):
                path = "/q?" + urllib.parse.urlencode({"s": f'select * from s where q = "x{i}"'})
                writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
                head = await reader.readuntil(b"\r\n\r\n")
                size = next(int(l.split(b":")[1]) for l in head.split(b"\r\n") if l.lower().startswith(b"content-length"))
                body = await reader.readexactly(size)
                assert head.startswith(b"HTTP/1.1 200"), head + body
            writer.close()
        await engine.close()
        upstream.close()
    asyncio.run(main())
    """
)


def instructions(tree: Path, rounds: int, work: Path, harness: str = "h.py") -> int:
    """Instructions callgrind counted for ``harness`` on ``tree`` with ``rounds``."""
    out = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            str(work / harness),
            str(tree),
            str(rounds),
            str(work / "tables"),
        ],
        capture_output=True,
        text=True,
        timeout=1800,
        check=True,
    ).stderr
    found = re.search(r"Collected : (\d+)", out)
    if found is None:
        raise SystemExit(f"callgrind said nothing countable:\n{out[-2000:]}")
    return int(found.group(1))


def per_call(tree: Path, rounds: int, work: Path) -> float:
    return (instructions(tree, rounds, work) - instructions(tree, 0, work)) / (rounds * CALLS_PER_ROUND)


def per_request(tree: Path, requests: int, work: Path) -> float:
    return (instructions(tree, requests, work, "served.py") - instructions(tree, 0, work, "served.py")) / requests


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--against", default="edc69e4", help="the commit to compare with (default: before the one call path)"
    )
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    print(
        f"command: python bench/call_instructions.py --against {args.against} --rounds {args.rounds} "
        f"--requests {args.requests}",
        flush=True,
    )
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        (work / "h.py").write_text(HARNESS)
        (work / "served.py").write_text(SERVED)
        (work / "tables").mkdir()
        (work / "tables" / "t.ql").write_text(
            "create table t on select get from \"http://127.0.0.1:9/items?id={id}\" resultset 'items'\n"
            "create table s on select get from \"{config.base}/search?q={q}\" resultset 'items'\n"
        )
        other = work / "other"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(other), args.against], check=True
        )
        try:
            before = per_call(other, args.rounds, work)
            now = per_call(ROOT, args.rounds, work)
            print(
                f"instructions per upstream call, the engine alone: {args.against} {before:,.0f}; "
                f"this tree {now:,.0f} (×{now / before:.2f})",
                flush=True,
            )
            served_before = per_request(other, args.requests, work)
            served_now = per_request(ROOT, args.requests, work)
            print(
                f"instructions per served select * (the gateway in process, every request its own): "
                f"{args.against} {served_before:,.0f}; this tree {served_now:,.0f} (×{served_now / served_before:.2f})"
            )
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(other)], check=False)


if __name__ == "__main__":
    main()
