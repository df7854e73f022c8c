"""The emulator's control endpoints (/_sandbox/*) need its control token.

The gateway's ad-hoc scripts may reach every host the loaded tables use, the
emulator's included; without the token a caller's inline table could read every
other caller's requests (headers, bodies, eBay tokens) and reset the marketplace.
Real servers on 127.0.0.1 throughout: the emulator, the gateway, `qlgate sandbox`."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

from qlgate.engine.engine import Engine
from qlgate_ebay_emulator.app import RunningSandbox, Sandbox
from tests.conftest import served
from tests.processes import drain

ROOT = Path(__file__).resolve().parents[2]
WATCHED = "230851234562"
CONTROL = [
    ("GET", "/_sandbox/requests"),
    ("DELETE", "/_sandbox/requests"),
    ("POST", "/_sandbox/reset"),
    ("PUT", "/_sandbox/faults"),
]


@pytest.fixture
async def gateway(emulator):
    engine = Engine(tables=ROOT / "tables", config=emulator.config())
    async with served(engine) as session:
        yield session


async def run_q(gateway: aiohttp.ClientSession, script: str) -> tuple[int, str]:
    async with gateway.post("/q", data=script.encode(), headers={"Content-Type": "text/plain"}) as resp:
        return resp.status, await resp.text()


async def recorded(emulator: RunningSandbox) -> list[dict]:
    async with aiohttp.ClientSession() as session:
        async with session.get(emulator.base + "/_sandbox/requests", headers=emulator.control_headers()) as resp:
            assert resp.status == 200
            return await resp.json()


# ------------------------------------------------------------ (1) through the gateway
ATTACKS = {
    "read requests": 'create table t on select get from "{base}/_sandbox/requests"; return select * from t;',
    "reset": 'create table t on select post to "{base}/_sandbox/reset"; return select * from t;',
    "forget requests": 'create table t on select delete "{base}/_sandbox/requests"; return select * from t;',
    "inject faults": 'f = {{"*": {{"fail": "http500"}}}}; create table t on insert put to "{base}/_sandbox/faults" '
    'using headers "Content-Type" = "application/json"; return insert into t values ("{{f}}");',
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
async def test_gateway_scripts_cannot_use_the_control_endpoints(emulator, gateway, attack):
    # another caller's traffic: a watch-list write carrying the eBay token in its body
    status, body = await run_q(
        gateway, f'return insert into ebay.trading.AddToWatchList (ItemID) values ("{WATCHED}");'
    )
    assert status == 200, body
    before = await recorded(emulator)
    assert any("TEST-TOKEN" in r["body"] for r in before)
    user = emulator.sandbox.market.user_for_token("TEST-TOKEN")
    assert user.watch == [WATCHED]

    status, body = await run_q(gateway, ATTACKS[attack].format(base=emulator.base))
    assert status >= 400, body  # the call failed ...
    assert "TEST-TOKEN" not in body and "AddToWatchList" not in body and emulator.control_token not in body

    assert await recorded(emulator) == before  # ... and changed nothing
    assert emulator.sandbox.market.user_for_token("TEST-TOKEN").watch == [WATCHED]
    assert emulator.sandbox.faults == {}
    status, body = await run_q(gateway, "return select Ack from ebay.shopping.GeteBayTime;")
    assert status == 200 and "Success" in body


async def test_the_control_token_is_not_in_the_config_scripts_see(emulator):
    assert emulator.control_token not in json.dumps(emulator.config())
    async with Engine(tables=ROOT / "tables", config=emulator.config()) as engine:
        config = (await engine.execute('return "{config}";')).value  # the deployer's scripts read it all
    assert emulator.base in json.dumps(config) and emulator.control_token not in json.dumps(config)


# ------------------------------------------------------------ (2) the endpoints themselves
async def test_control_endpoints_need_the_token(emulator):
    other = await RunningSandbox().start()
    try:
        assert other.control_token != emulator.control_token and len(emulator.control_token) >= 32
        async with aiohttp.ClientSession() as session:
            for method, path in CONTROL:
                url = emulator.base + path
                payload = {"json": {}} if method == "PUT" else {}
                async with session.request(method, url, **payload) as resp:
                    assert resp.status == 401, (method, path)
                    assert "error" in await resp.json() and resp.headers["WWW-Authenticate"].startswith("Bearer")
                for wrong in (
                    {"Authorization": "Bearer wrong"},
                    {"X-Sandbox-Token": "wrong"},
                    {"Authorization": f"Basic {emulator.control_token}"},
                    {"X-Sandbox-Token": emulator.control_token[:-1]},
                    other.control_headers(),
                ):
                    async with session.request(method, url, headers=wrong, **payload) as resp:
                        if "Basic" in wrong.get("Authorization", ""):
                            assert resp.status == 401, (method, path)  # not a bearer token: none given
                        else:
                            assert resp.status == 403, (method, path, wrong)
                        assert "error" in await resp.json()
                for right in (
                    emulator.control_headers(),
                    {"X-Sandbox-Token": emulator.control_token},
                    {"authorization": f"bearer {emulator.control_token}"},
                ):
                    async with session.request(method, url, headers=right, **payload) as resp:
                        assert resp.status == 200, (method, path, await resp.text())
    finally:
        await other.stop()


async def test_refused_calls_change_nothing_and_ebay_stays_open(emulator):
    async with aiohttp.ClientSession() as session:
        async with session.get(
            emulator.base + "/shopping",
            params={"callname": "GeteBayTime", "appid": "TEST-APPID", "version": "765", "responseencoding": "JSON"},
        ) as resp:
            assert resp.status == 200 and (await resp.json())["Ack"] == "Success"  # no token needed
        for method, path in CONTROL:
            payload = {"json": {"*": {"fail": "http500"}}} if method == "PUT" else {}
            async with session.request(method, emulator.base + path, headers={"X-Sandbox-Token": "x"}, **payload):
                pass
        assert emulator.sandbox.faults == {} and len(await recorded(emulator)) == 1


async def test_a_sandbox_built_directly_has_its_own_token():
    sandbox = Sandbox()
    assert sandbox.control_token and sandbox.control_token != Sandbox().control_token
    assert sandbox.control_token not in repr(sandbox)
    server = TestServer(sandbox.app(), host="127.0.0.1")
    await server.start_server()
    try:
        async with aiohttp.ClientSession() as session:
            async with session.get(server.make_url("/_sandbox/requests")) as resp:
                assert resp.status == 401
            async with session.get(
                server.make_url("/_sandbox/requests"), headers={"X-Sandbox-Token": sandbox.control_token}
            ) as resp:
                assert resp.status == 200 and await resp.json() == []
    finally:
        await server.close()
    running = RunningSandbox(Sandbox(), control_token="chosen")
    assert running.control_token == running.sandbox.control_token == "chosen"
    assert running.control_headers() == {"Authorization": "Bearer chosen"}


# ------------------------------------------------------------ (3) `qlgate sandbox`
def start_sandbox(tmp_path: Path, *args: str, env_token: str | None = None) -> tuple[subprocess.Popen, str]:
    env = {k: v for k, v in os.environ.items() if k != "QLGATE_SANDBOX_TOKEN"}
    if env_token is not None:
        env["QLGATE_SANDBOX_TOKEN"] = env_token
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "qlgate",
            "sandbox",
            "--port",
            "0",
            "--write-config",
            str(tmp_path / "emulator.json"),
            *args,
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = drain(proc).wait_for_line(bool, timeout=60)
    except AssertionError:
        proc.kill()
        raise
    return proc, line


def stop(proc: subprocess.Popen) -> str:
    """Stop the sandbox; what it wrote to stderr after its first line."""
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)
    return drain(proc).text(wait=5).partition("\n")[2]


def status_of(url: str, headers: dict[str, str] | None = None, method: str = "GET") -> int:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}, method=method), timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def test_cli_prints_a_generated_token_once(tmp_path):
    proc, line = start_sandbox(tmp_path)
    try:
        match = re.search(r"eBay emulator on (http://127\.0\.0\.1:\d+); control token (\S+?)[;\s]", line)
        assert match, line
        base, token = match.groups()
        assert len(token) >= 32
        assert token not in (tmp_path / "emulator.json").read_text()
        assert status_of(base + "/_sandbox/requests") == 401
        assert status_of(base + "/_sandbox/requests", {"X-Sandbox-Token": "nope"}) == 403
        assert status_of(base + "/_sandbox/requests", {"Authorization": f"Bearer {token}"}) == 200
        assert status_of(base + "/_sandbox/reset", {"X-Sandbox-Token": token}, method="POST") == 200
    finally:
        rest = stop(proc)
    assert token not in rest  # printed once, at start-up


@pytest.mark.parametrize("how", ["flag", "env", "both"])
def test_cli_honours_a_given_token(tmp_path, how):
    chosen = "a-token-the-tests-chose"
    args = ("--control-token", chosen) if how in ("flag", "both") else ()
    proc, line = start_sandbox(tmp_path, *args, env_token={"flag": None, "env": chosen, "both": "from-env"}[how])
    try:
        base = re.search(r"eBay emulator on (http://127\.0\.0\.1:\d+)", line).group(1)
        assert chosen not in line and "from-env" not in line  # a given token is not echoed
        assert chosen not in (tmp_path / "emulator.json").read_text()
        assert status_of(base + "/_sandbox/requests") == 401
        assert status_of(base + "/_sandbox/requests", {"Authorization": "Bearer from-env"}) == 403  # the flag wins
        assert status_of(base + "/_sandbox/requests", {"Authorization": f"Bearer {chosen}"}) == 200
        assert status_of(base + "/_sandbox/requests", {"X-Sandbox-Token": chosen}) == 200
    finally:
        stop(proc)
