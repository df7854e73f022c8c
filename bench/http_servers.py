"""Server choice, measured (issue 29): qlgate's own HTTP server against uvicorn (httptools,
uvloop) and granian, the same trivial endpoints, one process each, in one interleaved run.

    python bench/http_servers.py [--rounds 3] [--seconds 3] [--concurrency 50] [--servers ...]

Endpoints, the same bytes from every server:

  GET  /fixed   a fixed small JSON (``{"status":"ok"}``), no work at all
  POST /echo    the 1 KB request body echoed back (application/octet-stream)

Servers (each one process, access log off, load from ``wrk -t1 -c50``):

  qlgate            ``qlgate.server.server.Server`` over ``build_app(Engine(tables=<empty dir>,
                    config={}))`` (what ``qlgate serve`` runs, uvloop, its heap settled as serve
                    does), the two endpoints added to its router: each request goes the whole way a
                    gateway request goes — connection (httptools), pipeline (caller check, request
                    id, answer shaping), router, handler
  qlgate-bare       the same server with the pipeline taken out (``connection.answer`` replaced,
                    in that process only, by a function that answers the two paths): qlgate's own
                    connection alone, to weigh against the raw apps below
  uvicorn           ``uvicorn`` with ``http="httptools"``, ``loop="uvloop"`` and a raw ASGI app (no
                    framework): a path compare, then the bytes
  uvicorn-pipeline  uvicorn (the same settings) under qlgate's pipeline: a thin ASGI adapter makes a
                    ``Request`` of the scope and sends what ``pipeline.answer`` gives — what the
                    gateway would cost if uvicorn served it, to weigh against ``qlgate``
  granian-rsgi      granian (``--interface rsgi``, 1 worker, 1 runtime thread, uvloop), raw RSGI app
  granian-asgi      granian (``--interface asgi``), the same raw ASGI app as uvicorn

Granian does its I/O on a Rust thread beside the Python one, so its req/s may use more than one
core: CPU per request is the figure to compare. Raw servers are weighed against qlgate-bare,
uvicorn-pipeline against qlgate.

For reference, qlgate also serves its own ``GET /health`` and ``/q?s=return 1;`` (the full
``/q`` path: script compiled once and cached, run, answer encoded). Each cell: req/s and CPU µs
per request of the serving process and its children (utime + stime, ``/proc/PID/stat``);
medians over the rounds (odd rounds in reverse order) and, per round, each server's CPU per
request divided by its baseline's (``BASELINE``): median (min–max).

``python bench/http_servers.py serve NAME PORT`` runs one of the servers (what the bench starts).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from gateway import free_port, stop_all, wait  # noqa: E402
from unique import cpu_seconds, median_spread, wrk  # noqa: E402

FIXED = b'{"status":"ok"}'
BODY_BYTES = 1024
SERVERS = ("qlgate", "qlgate-bare", "uvicorn", "uvicorn-pipeline", "granian-rsgi", "granian-asgi")
# what each is weighed against: like against like
BASELINE = {"uvicorn": "qlgate-bare", "granian-rsgi": "qlgate-bare", "granian-asgi": "qlgate-bare",
            "uvicorn-pipeline": "qlgate", "qlgate": "qlgate-bare"}  # fmt: skip


# ---------------------------------------------------------------------------- the raw apps
async def asgi_app(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] != "http":
        return
    path = scope["path"]
    if path == "/fixed":
        body, ctype, status = FIXED, b"application/json", 200
    elif path == "/echo":
        chunks, more = [], True
        while more:
            message = await receive()
            chunks.append(message.get("body", b""))
            more = message.get("more_body", False)
        body, ctype, status = b"".join(chunks), b"application/octet-stream", 200
    else:
        body, ctype, status = b"", b"text/plain", 404
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", ctype), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def rsgi_app(scope, protocol):
    path = scope.path
    if path == "/fixed":
        protocol.response_bytes(200, [("content-type", "application/json")], FIXED)
    elif path == "/echo":
        protocol.response_bytes(200, [("content-type", "application/octet-stream")], await protocol())
    else:
        protocol.response_bytes(404, [("content-type", "text/plain")], b"")


def qlgate_gateway():
    """The gateway of the qlgate cells: no tables, config {}, the two endpoints on its router."""
    import logging

    from qlgate.engine.engine import Engine
    from qlgate.server.app import build_app
    from qlgate.server.response import Response

    logging.getLogger("qlgate.access").setLevel(logging.WARNING)  # as serve --no-access-log

    async def fixed(request) -> Response:
        return Response(FIXED, 200, "application/json")

    async def echo(request) -> Response:
        return Response(request.body, 200, "application/octet-stream")

    tables = tempfile.mkdtemp(prefix="qlgate-http-servers-tables-")
    gateway = build_app(Engine(tables=tables, config={}))
    shutil.rmtree(tables, ignore_errors=True)  # read already
    gateway.router.add("GET", "/fixed", fixed)
    gateway.router.add("POST", "/echo", echo)
    return gateway


_PIPELINE_GATEWAY = None


async def asgi_pipeline(scope, receive, send):
    """ASGI to qlgate's pipeline: the scope as a ``Request``, ``pipeline.answer``'s response sent."""
    global _PIPELINE_GATEWAY
    if scope["type"] != "http":
        return await asgi_app(scope, receive, send)
    from qlgate.server.pipeline import answer
    from qlgate.server.request import MultiMap, Request

    if _PIPELINE_GATEWAY is None:
        _PIPELINE_GATEWAY = qlgate_gateway()
    body, more = b"", True
    while more:
        message = await receive()
        body += message.get("body", b"")
        more = message.get("more_body", False)
    headers = MultiMap([(k.decode("latin-1"), v.decode("latin-1")) for k, v in scope["headers"]], fold=True)
    target = scope["raw_path"].decode("latin-1")
    if scope["query_string"]:
        target += "?" + scope["query_string"].decode("latin-1")
    client = scope.get("client")
    request = Request(
        _PIPELINE_GATEWAY, scope["method"], target, headers, client[0] if client else None, body, bool(body)
    )
    response = await answer(request)
    fields = [(n.encode("latin-1"), v.encode("latin-1")) for n, v in response.headers.items()]
    fields.append((b"content-length", str(len(response.body)).encode()))
    await send({"type": "http.response.start", "status": response.status, "headers": fields})
    await send({"type": "http.response.body", "body": response.body})


def serve_qlgate(port: int, bare: bool) -> None:
    from qlgate.loop import run
    from qlgate.server import connection
    from qlgate.server.response import Response
    from qlgate.server.server import Server
    from qlgate.server.startup import settle_heap

    if bare:

        async def answer(request) -> Response:
            if request.target == "/fixed":
                return Response(FIXED, 200, "application/json")
            if request.target == "/echo":
                return Response(request.body, 200, "application/octet-stream")
            return Response(b"", 404, "text/plain")

        connection.answer = answer  # the connection module's name for pipeline.answer

    async def main() -> None:
        server = Server(qlgate_gateway())
        await server.listen("127.0.0.1", port)
        settle_heap()
        await asyncio.Event().wait()

    run(main())


def serve(name: str, port: int) -> None:
    if name in ("qlgate", "qlgate-bare"):
        serve_qlgate(port, bare=name == "qlgate-bare")
    elif name in ("uvicorn", "uvicorn-pipeline"):
        import uvicorn

        uvicorn.run(
            asgi_app if name == "uvicorn" else asgi_pipeline,
            host="127.0.0.1",
            port=port,
            http="httptools",
            loop="uvloop",
            lifespan="off",
            access_log=False,
            log_level="warning",
            ws="none",
            server_header=name == "uvicorn",  # qlgate's pipeline sets its own Server header
        )
    else:
        raise SystemExit(f"no server {name!r} to run in-process")


def command(name: str, port: int) -> list[str]:
    if name.startswith("granian-"):
        interface = name.split("-", 1)[1]
        app = "http_servers:rsgi_app" if interface == "rsgi" else "http_servers:asgi_app"
        return [
            sys.executable, "-m", "granian", "--interface", interface, "--host", "127.0.0.1", "--port", str(port),
            "--workers", "1", "--runtime-threads", "1", "--loop", "uvloop", "--http", "1", "--no-ws",
            "--no-access-log", "--log-level", "warning", "--working-dir", str(HERE), app,
        ]  # fmt: skip
    return [sys.executable, str(Path(__file__).resolve()), "serve", name, str(port)]


# ---------------------------------------------------------------------------- the bench
def main() -> None:
    if sys.argv[1:2] == ["serve"]:
        serve(sys.argv[2], int(sys.argv[3]))
        return
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--servers", nargs="+", default=list(SERVERS), choices=SERVERS)
    args = parser.parse_args()
    print(
        f"command: python bench/http_servers.py --rounds {args.rounds} --seconds {args.seconds} "
        f"--concurrency {args.concurrency} --servers {' '.join(args.servers)}",
        flush=True,
    )
    if not shutil.which("wrk"):
        raise SystemExit("needs wrk on PATH")
    versions = []
    for module in ("uvicorn", "granian", "httptools", "uvloop"):
        try:
            versions.append(f"{module} {__import__(module).__version__}")
        except (ImportError, AttributeError):
            versions.append(f"{module} -")
    print(f"machine: {os.cpu_count()} CPUs, python {sys.version.split()[0]}, {', '.join(versions)}", flush=True)
    servers = list(args.servers)
    if any(s.startswith("granian") for s in servers) and shutil.which("granian") is None:
        try:
            __import__("granian")
        except ImportError:
            print("granian is not installed: its cells are left out", flush=True)
            servers = [s for s in servers if not s.startswith("granian")]
    procs: list[subprocess.Popen] = []
    work = Path(tempfile.mkdtemp(prefix="qlgate-http-servers-"))
    try:
        run(args, servers, work, procs)
    finally:
        stop_all(procs)
        shutil.rmtree(work, ignore_errors=True)


def run(args, servers: list[str], work: Path, procs: list[subprocess.Popen]) -> None:
    post = work / "post.lua"
    post.write_text(
        'wrk.method = "POST"\n'
        f'wrk.body = string.rep("x", {BODY_BYTES})\n'
        'wrk.headers["Content-Type"] = "application/octet-stream"\n'
    )
    ports, pids = {}, {}
    for name in servers:
        ports[name] = free_port()
        proc = subprocess.Popen(command(name, ports[name]), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        procs.append(proc)
        pids[name] = proc.pid
    for name in servers:
        wait(f"http://127.0.0.1:{ports[name]}/fixed", timeout=60)
    cells = []  # (endpoint, server, path, script)
    for endpoint, path, script in (("GET /fixed", "/fixed", None), ("POST /echo 1 KB", "/echo", post)):
        cells += [(endpoint, name, path, script) for name in servers]
    if "qlgate" in servers:
        cells.append(("GET /health", "qlgate", "/health", None))
        cells.append(("GET /q return 1", "qlgate", "/q?s=return%201%3B", None))

    def load(endpoint: str, name: str, path: str, script: Path | None, seconds: int) -> dict:
        time.sleep(0.2)
        before = cpu_seconds(pids[name])
        r = wrk(f"http://127.0.0.1:{ports[name]}{path}", args.concurrency, seconds, script)
        cpu = cpu_seconds(pids[name]) - before
        r["rps"] = r["requests"] / r["seconds"]
        r["cpu_us"] = cpu / max(r["requests"], 1) * 1e6
        return r

    for cell in cells:  # warm up
        load(*cell, 1)
    results: dict[tuple[str, str], list[dict]] = {cell[:2]: [] for cell in cells}
    print(
        f"\n{args.rounds} rounds x {args.seconds} s per cell, wrk -t1 -c{args.concurrency}, odd rounds in reverse:",
        flush=True,
    )
    for round_no in range(args.rounds):
        for cell in cells if round_no % 2 == 0 else reversed(cells):
            r = load(*cell, args.seconds)
            results[cell[:2]].append(r)
            print(
                f"  round {round_no + 1}  {cell[0]:16} {cell[1]:16} {r['rps']:8.0f} req/s  {r['cpu_us']:6.1f} µs CPU/req"
                + (f"  ERRORS {r['errors']}" if r["errors"] else ""),
                flush=True,
            )

    print(
        f"\nmedians over {args.rounds} rounds; 'CPU / X's' = that server's CPU per request / X's, "
        "per round, median (min–max):"
    )
    for endpoint in dict.fromkeys(cell[0] for cell in cells):
        for name in servers:
            rs = results.get((endpoint, name))
            if not rs:
                continue
            line = (
                f"  {endpoint:16} {name:16} {statistics.median(r['rps'] for r in rs):8.0f} req/s  "
                f"{statistics.median(r['cpu_us'] for r in rs):6.1f} µs CPU/req"
            )
            other = BASELINE.get(name)
            base = results.get((endpoint, other))
            if base:
                line += (
                    f"   CPU / {other}'s {median_spread([r['cpu_us'] / b['cpu_us'] for r, b in zip(rs, base)])}"
                    f"   req/s / {other}'s {median_spread([r['rps'] / b['rps'] for r, b in zip(rs, base)])}"
                )
            print(line, flush=True)


if __name__ == "__main__":
    main()
