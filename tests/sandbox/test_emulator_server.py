"""The emulator server (emulator/qlgate_ebay_emulator/server.py): the first ``qlgate
run`` that calls eBay starts it, later runs are served by a copy of its marketplace,
built once — and no run sees what another did. Real processes, in a runtime
directory of the test's own."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from tests.processes import drain
from tests.sandbox.test_cli import free_port, stop, wait_for

ROOT = Path(__file__).resolve().parents[2]
SEARCH = (
    "return select searchResult.item[0].title from ebay.finding.findItemsByKeywords where keywords = 'camera' limit 1;"
)
WATCH = (
    "insert into ebay.trading.AddToWatchList (ItemID) values ('{item}'); "
    "return select WatchList.ItemArray.Item[*].ItemID from ebay.trading.GetMyeBayBuying;"
)


@pytest.fixture
def runtime():
    """``XDG_RUNTIME_DIR`` of the test's own (a short path: a Unix socket's has little room);
    the servers started there stopped at the end."""
    where = Path(tempfile.mkdtemp(prefix="qlgate-rt-"))
    yield where
    for pid in servers(where):
        os.kill(pid, signal.SIGTERM)
    shutil.rmtree(where, ignore_errors=True)


def servers(runtime: Path) -> list[int]:
    """The emulator servers whose socket is under ``runtime`` (procfs: no psutil here)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"qlgate_ebay_emulator.server" in command and any(str(runtime).encode() in c for c in command):
            found.append(int(entry.name))
    return found


def run(runtime: Path, script: str, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("EBAY_")}
    env.update(XDG_RUNTIME_DIR=str(runtime), QLGATE_EMULATOR_SERVER="on")
    return subprocess.run(
        [sys.executable, "-m", "qlgate", "run", "-e", script, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def upstream_ms(stderr: str) -> float:
    """The script's time in ``--diagnostics``' summary line."""
    line = next(line for line in stderr.splitlines() if "upstream call(s); script" in line)
    return float(line.split("script ", 1)[1].split(" ms", 1)[0])


def test_the_first_run_starts_the_server_and_later_runs_are_served_by_its_marketplace(runtime):
    first = run(runtime, SEARCH, "--diagnostics")
    assert first.returncode == 0, first.stderr
    built_here = upstream_ms(first.stderr)  # this run built its own emulator on its first call
    deadline = time.monotonic() + 120
    while not list((runtime / "qlgate").glob("emulator-*.sock")):
        assert time.monotonic() < deadline, "no emulator server came up"
        time.sleep(0.1)
    assert len(servers(runtime)) == 1
    second = run(runtime, SEARCH, "--diagnostics")
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout) == json.loads(first.stdout)  # the same marketplace
    served = upstream_ms(second.stderr)
    # the marketplace was built: the call is a call, not a build (a tenth of it, at most)
    assert served < built_here / 10, (served, built_here)
    assert len(servers(runtime)) == 1  # reused, not started again


def test_no_run_sees_what_another_did(runtime):
    assert run(runtime, SEARCH).returncode == 0
    deadline = time.monotonic() + 120
    while not list((runtime / "qlgate").glob("emulator-*.sock")):
        assert time.monotonic() < deadline, "no emulator server came up"
        time.sleep(0.1)
    for item in (230851234561, 230851234562):  # each run watches one item, on a fresh copy
        done = run(runtime, WATCH.format(item=item))
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == [[item]]  # not the item the run before watched too


def test_a_run_that_calls_no_ebay_table_starts_nothing(runtime):
    done = run(runtime, "return 1;")
    assert done.returncode == 0 and done.stdout.strip() == "1"
    assert servers(runtime) == []  # a server would have been started before the run ended


def test_off_builds_in_the_run_as_before(runtime):
    env = {k: v for k, v in os.environ.items() if not k.startswith("EBAY_")}
    env.update(XDG_RUNTIME_DIR=str(runtime), QLGATE_EMULATOR_SERVER="off")
    done = subprocess.run(
        [sys.executable, "-m", "qlgate", "run", "-e", SEARCH], cwd=ROOT, env=env, capture_output=True, timeout=120
    )
    assert done.returncode == 0
    assert servers(runtime) == [] and not (runtime / "qlgate").exists()


def test_serve_is_answered_by_the_servers_marketplace(runtime):
    """``qlgate serve`` (one process) takes the built marketplace too instead of building
    one before it listens: a child of the emulator server answers its eBay calls."""
    assert run(runtime, SEARCH).returncode == 0  # starts the server
    deadline = time.monotonic() + 120
    while not list((runtime / "qlgate").glob("emulator-*.sock")):
        assert time.monotonic() < deadline, "no emulator server came up"
        time.sleep(0.1)
    (server,) = servers(runtime)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("EBAY_")}
    env.update(XDG_RUNTIME_DIR=str(runtime), QLGATE_EMULATOR_SERVER="on")
    proc = subprocess.Popen(
        [sys.executable, "-m", "qlgate", "serve", "--port", str(port), "--workers", "1", "--no-access-log"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    drain(proc)
    try:
        wait_for(f"http://127.0.0.1:{port}/health", proc, timeout=120)
        assert len(children(server)) == 1  # this gateway's emulator
        url = f"http://127.0.0.1:{port}/ebay/finding/keywords?keywords=iphone&entriesperpage=2"
        with urllib.request.urlopen(url, timeout=60) as answer:
            assert len(json.loads(answer.read())["items"]) == 2
    finally:
        stop(proc)


def children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found.update(int(child) for child in (task / "children").read_text().split())
        except FileNotFoundError:
            pass
    return found
