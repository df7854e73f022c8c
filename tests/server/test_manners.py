"""Gateway manners (issue 19, item 7, and the busy port of item 4): ``qlgate
serve`` says at start-up where it listens, what it loaded, which upstreams and
who may call; every error answer — a route's, an endpoint's, aiohttp's own, even
a request aiohttp cannot parse — is ``{"err": …}`` JSON; an unknown path is a
404, a wrong method a 405 with ``Allow``; the access log is on unless turned off;
a port in use is one clear line and exit status 2."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from qlgate.server.banner import Facts, lines
from qlgate.server.listen import CannotListen, check_can_listen
from tests.conftest import served_server
from tests.processes import drain
from tests.sandbox.test_cli import free_port, wait_for

TABLES = {
    "items.ql": "create table items on select get from '{config.base}/users/{userId}/items?page={page}'",
    "echo.ql": "create table echo on select post to '{config.base}/echo'",
}
ROUTES = {
    "items.ql": 'return select * from items where userId = "{user}" and page = "{page}" '
    'via route "/u/{user}?page={^page}" using method get',
    "watch.ql": 'return select * from items where userId = "{id}" via route "/w/{id}" using method delete',
    "watch-add.ql": 'return select * from items where userId = "{id}" via route "/w/{id}" using method post',
    "post.ql": 'return select * from echo via route "/post" using method post',
}


# ------------------------------------------------------------------ in process: the error shape


@pytest.fixture
async def gateway(engine_for):
    async with served_server(engine_for(TABLES, routes=ROUTES)) as both:
        yield both


async def answer(session: aiohttp.ClientSession, method: str, path: str) -> tuple[int, dict, object]:
    async with session.request(method, path) as resp:
        assert resp.content_type == "application/json", (method, path, await resp.text())
        return resp.status, dict(resp.headers), await resp.json()


async def test_unknown_paths_are_404_in_the_error_shape(gateway):
    _, session = gateway
    for method, path in (("GET", "/nope"), ("POST", "/nope/deeper"), ("GET", "/u"), ("GET", "/tables/a/b")):
        status, _, body = await answer(session, method, path)
        assert (status, body) == (404, {"err": f"Cannot {method} {path}", "type": "NotFound", "status": 404})
    # a file the console does not have: aiohttp's own 404, in the same shape
    status, _, body = await answer(session, "GET", "/console/no-such-file.js")
    assert (status, body) == (404, {"err": "Cannot GET /console/no-such-file.js", "type": "NotFound", "status": 404})
    # a table that does not exist, asked for by name: the resource is missing (in a script, a 400)
    status, _, body = await answer(session, "GET", "/tables/no.such.table")
    assert status == 404 and "no.such.table" in body["err"], body


async def test_a_wrong_method_is_405_with_allow(gateway):
    _, session = gateway
    cases = (
        ("DELETE", "/u/u1", "GET, HEAD"),  # a route (it was 400 "No matching route")
        ("GET", "/w/7", "DELETE, POST"),  # one path, two routes: both methods
        ("PUT", "/post", "POST"),
        ("POST", "/health", "GET, HEAD"),  # the gateway's endpoints (each GET answers HEAD too)
        ("DELETE", "/tables", "GET, HEAD"),
        ("POST", "/tables/items", "GET, HEAD"),  # an endpoint with a path parameter
        ("PATCH", "/routes/get/u/x", "GET, HEAD"),
    )
    for method, path, allow in cases:
        status, headers, body = await answer(session, method, path)
        assert status == 405, (method, path, body)
        assert headers["Allow"] == allow
        assert body == {
            "err": f"{method} is not allowed on {path}; use {allow}",
            "type": "MethodNotAllowed",
            "status": 405,
        }
    async with session.head("/u/u1?page=1") as head, session.get("/u/u1?page=1") as get:  # HEAD: GET, no body
        assert head.status == get.status != 405 and await head.read() == b"" and await get.read() != b""
        assert head.headers["Content-Type"] == get.headers["Content-Type"]


async def test_a_route_without_a_required_parameter_is_400_naming_it(gateway):
    _, session = gateway
    status, _, body = await answer(session, "GET", "/u/u1")
    assert (status, body) == (
        400,
        {"err": "No matching route", "type": "BadRequest", "status": 400, "missing": ["page"]},
    )


def raw_exchange(port: int, request: bytes) -> tuple[str, dict[str, str], bytes]:
    """Send bytes no HTTP client would, and read the answer up to the connection's close."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(request)
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in header_lines)}
    return status_line, headers, body


async def test_requests_that_cannot_be_parsed_answer_in_the_error_shape(gateway, caplog):
    """Answered before any handler: in the error shape (never a framework's text/plain
    quoting the request), with an access-log line each and no traceback."""
    caplog.set_level(logging.INFO, logger="qlgate.access")
    server, _ = gateway
    secret = "s3cr3t-" + "k" * 9000  # a header over the 8 KiB limit: its value is not echoed
    for request, words in (
        (b"GET /health HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n", "the request is malformed: "),
        (b"G\x01T /health HTTP/1.1\r\nHost: x\r\n\r\n", "the request is malformed: "),
        (
            f"GET /health HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {secret}\r\n\r\n".encode(),
            "the request is malformed: its request line or a header is over the size limit",
        ),
    ):
        status_line, headers, body = await _in_thread(raw_exchange, server.port, request)
        assert status_line.split()[1] == "400", status_line
        assert headers["content-type"].startswith("application/json")
        answer = json.loads(body)
        assert list(answer) == ["err", "type", "status"] and answer["err"].startswith(words), answer
        assert (answer["type"], answer["status"]) == ("BadRequest", 400)
        assert b"s3cr3t" not in body and b"Bearer" not in body
    logged = [json.loads(r.getMessage()) for r in caplog.records if r.name == "qlgate.access"]
    assert [(e["status"], e["method"], e["error"].split(":")[0]) for e in logged] == [
        (400, None, "the request is malformed")
    ] * 3
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert "s3cr3t" not in caplog.text


async def _in_thread(fn, *args):
    import asyncio

    return await asyncio.get_running_loop().run_in_executor(None, fn, *args)


# ------------------------------------------------------------------ the banner's words


def facts(**changes) -> Facts:
    base = dict(
        url="http://127.0.0.1:3000",
        processes=1,
        tables=2,
        routes=1,
        problems=0,
        ebay=None,
        hosts=(),
        keys=(),
        insecure=False,
        console=True,
        access_log=True,
    )
    return Facts(**{**base, **changes})


def test_the_banner_says_who_may_call_and_how_many_upstreams():
    keyed = "\n".join(lines(facts(keys=("shop", "ops"), hosts=tuple(f"h{i}:443" for i in range(9)))))
    assert "API keys required (gateway.auth): shop, ops" in keyed
    assert "upstreams:  h0:443, h1:443, h2:443, h3:443, h4:443, h5:443 and 3 more" in keyed
    opened = "\n".join(lines(facts(insecure=True, console=False, access_log=False, problems=2)))
    assert "OPEN and --insecure" in opened and "console:    off" in opened and "access log: off" in opened
    assert "2 tables, 1 route (2 did not load" in opened


# ------------------------------------------------------------------ qlgate serve, for real

ROOT = Path(__file__).resolve().parents[2]


def workspace(tmp_path: Path, config: dict) -> list[str]:
    """A small deployment in ``tmp_path``: two tables (one host written out, one from
    the config), one route; the ``serve`` options that name it."""
    tables, routes = tmp_path / "tables", tmp_path / "routes"
    tables.mkdir()
    routes.mkdir()
    (tables / "forecast.ql").write_text(
        "create table weather.forecast on select get from '{config.weather.base}/v1/forecast?city={^city}'"
    )
    (tables / "pets.ql").write_text("create table pets on select get from 'http://127.0.0.1:9/pets'")
    (routes / "forecast.ql").write_text(
        'return select * from weather.forecast where city = "{city}" via route "/forecast?city={city}" using method get'
    )
    (tmp_path / "config.json").write_text(json.dumps(config))
    return ["--tables", str(tables), "--routes", str(routes), "--config", str(tmp_path / "config.json")]


def environment(tmp_path: Path) -> dict[str, str]:
    """The gateway's environment: no eBay credentials, its own jobs database, and
    this checkout importable from ``tmp_path``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("EBAY_")}
    env["QLGATE_JOBS_DATABASE"] = str(tmp_path / "jobs.sqlite")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


@contextlib.contextmanager
def serve(tmp_path: Path, config: dict, *extra: str) -> Iterator[tuple[str, list[str]]]:
    """``qlgate serve`` on a free port; yields its base URL and, once it has stopped
    (SIGTERM), fills the list with its stderr lines."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "qlgate", "serve", "--port", str(port), *workspace(tmp_path, config), *extra],
        cwd=tmp_path,
        env=environment(tmp_path),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    output = drain(proc)
    stderr: list[str] = []
    try:
        wait_for(f"http://127.0.0.1:{port}/health", proc, timeout=60)
        yield f"http://127.0.0.1:{port}", stderr
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
        stderr.extend(output.text(wait=10).splitlines())


def call(url: str, method: str = "GET") -> int:
    request = urllib.request.Request(url, method=method, headers={"Connection": "close"})
    try:
        with urllib.request.urlopen(request, timeout=10) as resp:
            return resp.status
    except urllib.error.HTTPError as error:
        assert error.headers.get_content_type() == "application/json"
        assert "err" in json.loads(error.read())
        return error.code


def test_the_banner_then_one_access_log_line_per_request(tmp_path):
    """Two processes: the banner once, after the port is bound; each request one JSON line."""
    config = {"weather": {"base": "https://api.weather.example"}, "ebay": {"environment": "sandbox"}}
    with serve(tmp_path, config, "--workers", "2") as (base, stderr):
        assert call(f"{base}/nope") == 404
        assert call(f"{base}/forecast", "DELETE") == 405
        assert call(f"{base}/jobs/1", "PATCH") == 405
        port = base.rsplit(":", 1)[1]
    banner = [line for line in stderr if not line.startswith('{"time"')]
    starts = [i for i, line in enumerate(banner) if line.startswith("qlgate ") and " serving " in line]
    assert len(starts) == 1, banner  # printed once, not by each process
    text = "\n".join(banner[starts[0] : starts[0] + 6])
    assert f"serving http://127.0.0.1:{port} (2 processes): 2 tables, 1 route" in text
    assert "eBay tables talk to eBay's sandbox (https://api.sandbox.ebay.com" in text
    # and why, said by the process that printed it (the workers' config says emulator or not)
    assert "(https://api.sandbox.ebay.com): ebay.environment is sandbox" in text
    assert "upstreams:  also 127.0.0.1:9, api.weather.example:443" in text
    assert "open gateway (no gateway.auth): it answers loopback clients only" in text
    assert f"console:    http://127.0.0.1:{port}/console" in text
    assert "access log: one JSON line per request on stderr" in text
    log = [json.loads(line) for line in stderr if line.startswith('{"time"')]
    seen = [(e["method"], e["path"], e["status"]) for e in log if e["path"] != "/health"]
    assert sorted(seen) == [("DELETE", "/forecast", 405), ("GET", "/nope", 404), ("PATCH", "/jobs/1", 405)]
    assert all(e["request_id"] and e["time"].endswith("Z") for e in log)


def test_no_access_log_and_the_emulator_in_the_banner(tmp_path):
    with serve(tmp_path, {"ebay": {"environment": "emulator"}}, "--workers", "1", "--no-access-log") as (base, err):
        for _ in range(3):
            assert call(f"{base}/nope") == 404
    assert not [line for line in err if line.startswith("{")], err
    text = "\n".join(err)
    assert "eBay tables use the built-in emulator at http://127.0.0.1:" in text
    assert ": ebay.environment is emulator" in text
    assert "(1 process): 2 tables, 1 route" in text and "access log: off" in text


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_port_in_use_is_one_clear_line_and_exit_2(tmp_path, workers):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        started = time.monotonic()
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "qlgate",
                "serve",
                "--port",
                str(port),
                "--workers",
                workers,
                *workspace(tmp_path, {}),
            ],
            cwd=tmp_path,
            env=environment(tmp_path),
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2, done.stderr
    assert f"port {port} on 127.0.0.1 is in use: " in done.stderr and "choose another with --port" in done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    assert " serving " not in done.stderr  # no banner for a gateway that never listened
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert time.monotonic() - started < 30


def test_where_it_cannot_listen_is_said_plainly():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        with pytest.raises(CannotListen, match=r"port \d+ on 127\.0\.0\.1 is in use: .*; choose another with --port"):
            check_can_listen("127.0.0.1", taken.getsockname()[1])
    with pytest.raises(CannotListen, match=r"192\.0\.2\.1 is not an address of this machine"):
        check_can_listen("192.0.2.1", free_port())  # TEST-NET-1: never local
    with pytest.raises(CannotListen, match=r"cannot listen on no-such-host\.invalid"):
        check_can_listen("no-such-host.invalid", free_port())
    check_can_listen("127.0.0.1", free_port())  # a free port passes
