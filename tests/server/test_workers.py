"""``qlgate serve --workers 2``: two processes answer on one port, a killed one is
replaced, and SIGTERM stops them all."""

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.processes import drain
from tests.sandbox.test_cli import free_port, wait_for

ROOT = Path(__file__).resolve().parents[2]


def test_two_workers_share_the_port_and_one_emulator():
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("EBAY_")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "qlgate", "serve", "--port", str(port), "--workers", "2"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    output = drain(proc)  # read as written: an unread pipe filled once and hung both workers
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(f"{base}/health", proc)
        pids = set()
        deadline = time.monotonic() + 20
        while len(pids) < 2 and time.monotonic() < deadline:
            request = urllib.request.Request(f"{base}/health", headers={"Connection": "close"})
            with urllib.request.urlopen(request, timeout=10) as resp:
                pids.add(json.loads(resp.read())["pid"])
        assert len(pids) == 2
        with urllib.request.urlopen(f"{base}/ready", timeout=30) as resp:  # the workers check the supervisor's emulator
            assert json.loads(resp.read()) == {"ready": True, "checks": {"emulator": "ok"}}
        watch = urllib.request.Request(f"{base}/ebay/watchlist/230851234562", method="POST")
        with urllib.request.urlopen(watch, timeout=30) as resp:
            assert json.loads(resp.read())["WatchListCount"] == 1
        for _ in range(6):  # whichever worker answers sees the same emulator state
            with urllib.request.urlopen(
                urllib.request.Request(f"{base}/ebay/mybuying", headers={"Connection": "close"}), timeout=30
            ) as resp:
                assert [i["ItemID"] for i in json.loads(resp.read())["watching"]] == [230851234562]
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0
    # the workers' banner says it is the shared emulator, not eBay's production
    assert "eBay tables use the built-in emulator at http://127.0.0.1:" in output.text(wait=5)


def children(pid: int) -> set[int]:
    """The processes ``pid`` has forked and not yet reaped (procfs: no psutil here)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found.update(int(child) for child in (task / "children").read_text().split())
        except FileNotFoundError:  # a thread that ended meanwhile
            pass
    return found


def health_pid(base: str) -> int:
    request = urllib.request.Request(f"{base}/health", headers={"Connection": "close"})
    with urllib.request.urlopen(request, timeout=5) as resp:
        return json.loads(resp.read())["pid"]


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_a_killed_worker_is_replaced_and_sigterm_stops_them_all(tmp_path):
    """An empty workspace (no tables, no emulator): the supervisor's children are its workers."""
    from qlgate.server.serve import STOP_SECONDS

    port = free_port()
    log = (tmp_path / "serve.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "qlgate", "serve", "--port", str(port), "--workers", "2"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(f"{base}/health", proc)
        deadline = time.monotonic() + 20
        while len(children(proc.pid)) < 2 or not children(proc.pid) <= {health_pid(base) for _ in range(20)}:
            assert time.monotonic() < deadline, "two workers did not both answer"
        workers = children(proc.pid)
        victim = min(workers)
        os.kill(victim, signal.SIGKILL)
        deadline = time.monotonic() + 20
        while victim in children(proc.pid):  # reaped by the supervisor
            assert time.monotonic() < deadline
            time.sleep(0.05)
        answered = {health_pid(base) for _ in range(10)}  # one worker down: the port still answers
        deadline = time.monotonic() + 30
        while len(children(proc.pid) - workers) < 1:
            assert time.monotonic() < deadline, "no worker replaced the killed one"
            time.sleep(0.1)
        (replacement,) = children(proc.pid) - workers
        deadline = time.monotonic() + 30
        while replacement not in answered:  # it serves, not only runs
            assert time.monotonic() < deadline, "the new worker does not answer"
            answered.add(health_pid(base))
        began = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(STOP_SECONDS) == 0
        assert time.monotonic() - began < 10  # idle workers: well inside the bound
        assert not any(alive(pid) for pid in workers | {replacement})
    finally:
        proc.kill()
        log.close()
    said = (tmp_path / "serve.log").read_text()
    assert re.search(
        rf"worker [01] \(pid {victim}\) killed by SIGKILL after [0-9.]+ s; starting another in 0.5 s",
        said,
    )
    # the banner once: the worker started in the killed one's place (the first, usually) says nothing again
    assert len(re.findall(r"^qlgate \S+ serving http://127\.0\.0\.1:\d+ \(2 processes\)", said, re.M)) == 1, said
