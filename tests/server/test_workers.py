"""``qlgate serve --workers 2``: two processes answer on one port and stop on SIGTERM."""

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.sandbox.test_cli import free_port, wait_for

ROOT = Path(__file__).resolve().parents[2]


def test_two_workers_share_the_port_and_one_emulator():
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("EBAY_")}
    proc = subprocess.Popen([sys.executable, "-m", "qlgate", "serve", "--port", str(port), "--workers", "2"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(f"{base}/health", proc)
        pids = set()
        deadline = time.monotonic() + 20
        while len(pids) < 2 and time.monotonic() < deadline:
            request = urllib.request.Request(f"{base}/health", headers={"Connection": "close"})
            with urllib.request.urlopen(request) as resp:
                pids.add(json.loads(resp.read())["pid"])
        assert len(pids) == 2
        watch = urllib.request.Request(f"{base}/ebay/watchlist/230851234562", method="POST")
        with urllib.request.urlopen(watch) as resp:
            assert json.loads(resp.read())["WatchListCount"] == 1
        for _ in range(6):  # whichever worker answers sees the same emulator state
            with urllib.request.urlopen(urllib.request.Request(f"{base}/ebay/mybuying",
                                                               headers={"Connection": "close"})) as resp:
                assert json.loads(resp.read())["watching"]["ItemID"] == 230851234562
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0
