"""The emulator and the gateway as a newcomer starts them: real processes."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.processes import drain, said, slowness

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url: str, proc: subprocess.Popen, timeout: float = 20, headers: dict[str, str] | None = None) -> None:
    """Until ``url`` answers: ``timeout`` seconds on a quiet machine, scaled by how slowly
    this one starts qlgate now (``slowness()``)."""
    timeout *= slowness()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, said(proc)
        try:
            urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=1)
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"{url} did not answer in {timeout}s")


def stop(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


def test_sandbox_writes_a_config_that_run_uses(tmp_path):
    config = tmp_path / "emulator.json"
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "qlgate",
            "sandbox",
            "--port",
            str(port),
            "--write-config",
            str(config),
            "--control-token",
            "cli-test-token",
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    drain(proc)
    try:
        wait_for(f"http://127.0.0.1:{port}/_sandbox/requests", proc, headers={"Authorization": "Bearer cli-test-token"})
        assert "cli-test-token" not in config.read_text()
        assert (
            json.loads(config.read_text())["tables"]["ebay"]["trading"]["gateway"]
            == f"http://127.0.0.1:{port}/ws/api.dll"
        )
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "qlgate",
                "run",
                "scripts/ebay/search.ql",
                "--config",
                str(config),
                "--var",
                "keywords=iphone 5",
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert run.returncode == 0, run.stderr
        rows = json.loads(run.stdout)
        assert len(rows) == 3 and all("iPhone 5" in r["title"] for r in rows)
        assert "TEST-TOKEN" not in run.stderr
    finally:
        stop(proc)


def test_serve_without_credentials_uses_the_built_in_emulator(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("EBAY_")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "qlgate", "serve", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    drain(proc)
    try:
        wait_for(f"http://127.0.0.1:{port}/health", proc)
        base = f"http://127.0.0.1:{port}"
        with urllib.request.urlopen(
            f"{base}/ebay/finding/keywords?keywords=iphone&entriesperpage=2", timeout=30
        ) as resp:
            body = json.loads(resp.read())
        assert len(body["items"]) == 2 and body["pagination"]["entriesPerPage"] == 2
        request = urllib.request.Request(f"{base}/ebay/watchlist/230851234562", method="POST")
        with urllib.request.urlopen(request, timeout=30) as resp:
            assert json.loads(resp.read())["WatchListCount"] == 1
        with urllib.request.urlopen(f"{base}/ebay/mybuying", timeout=30) as resp:
            assert [i["ItemID"] for i in json.loads(resp.read())["watching"]] == [230851234562]
        with urllib.request.urlopen(f"{base}/table?name=ebay.trading.AddItem", timeout=30) as resp:
            described = resp.read().decode()
        assert "TEST-TOKEN" not in described and "****" in described
    finally:
        stop(proc)
