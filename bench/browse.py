"""Browse search through the gateway against the built-in emulator (issue 16):
req/s, p50 and p99 at concurrency 50, beside the floor measured in the same run —
the emulator's Browse search called directly with the same OAuth token.

    python bench/browse.py [--workers 1] [--seconds 5] [--concurrency 50] [--loadgen wrk|python]

Every target answers the same search (``q=camera``, 10 items, application token):
(floor) the emulator directly; (a) ``/q`` with a projection of five fields; (b) the
shipped route ``/ebay/browse/search``. The gateway fetches its token once from the
emulator's OAuth endpoint and reuses it, so the figures are the steady state.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from gateway import free_port, load, serve_command, stop_all, wait  # noqa: E402

SCRIPT = (
    "select itemId as itemId, title as title, price.value as price, condition as condition, "
    'seller.username as seller from ebay.buy.browse.search where q = "camera" limit 10'
)


def app_token(config: dict) -> str:
    """An application token from the emulator's OAuth endpoint, as the gateway gets one."""
    entry = config["auth"]["ebay.app"]
    basic = base64.b64encode(f"{entry['clientId']}:{entry['clientSecret']}".encode()).decode()
    body = urllib.parse.urlencode({"grant_type": "client_credentials", "scope": " ".join(entry["scopes"])})
    request = urllib.request.Request(
        entry["tokenUrl"],
        data=body.encode(),
        headers={"Authorization": f"Basic {basic}", "Content-Type": "application/x-www-form-urlencoded"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)["access_token"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--loadgen", choices=("wrk", "python"), default="wrk" if shutil.which("wrk") else "python")
    args = parser.parse_args()
    print(
        f"command: python bench/browse.py --workers {args.workers} --seconds {args.seconds} "
        f"--concurrency {args.concurrency} --loadgen {args.loadgen}",
        flush=True,
    )
    work = Path(tempfile.mkdtemp(prefix="qlgate-bench-browse-"))
    config_file = work / "emulator.json"
    emulator_port, gateway_port = free_port(), free_port()
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "qlgate",
                "sandbox",
                "--port",
                str(emulator_port),
                "--write-config",
                str(config_file),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "QLGATE_SANDBOX_TOKEN": "bench-control"},
        )
    ]
    try:
        wait(f"http://127.0.0.1:{emulator_port}/shopping?callname=GeteBayTime", timeout=30)
        for _ in range(100):
            if config_file.exists() and config_file.stat().st_size:
                break
            time.sleep(0.1)
        config = json.loads(config_file.read_text())
        procs.append(
            subprocess.Popen(
                serve_command(
                    gateway_port, config_file, tables=ROOT / "tables", routes=ROOT / "routes", workers=args.workers
                ),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        gateway = f"http://127.0.0.1:{gateway_port}"
        wait(f"{gateway}/health", timeout=60)
        host = config["tables"]["ebay"]["rest"]["hosts"]["api"]
        token = app_token(config)
        targets = [
            (
                "floor: emulator direct",
                f"{host}/buy/browse/v1/item_summary/search?q=camera&limit=10",
                {"Authorization": f"Bearer {token}", "X-EBAY-C-MARKETPLACE-ID": "EBAY_US"},
            ),
            ("(a) /q, 5 fields", f"{gateway}/q?" + urllib.parse.urlencode({"s": SCRIPT}), {}),
            ("(b) route /ebay/browse/search", f"{gateway}/ebay/browse/search?q=camera&limit=10", {}),
        ]
        print(
            f"\nconcurrency {args.concurrency}, {args.workers} gateway worker(s), load from {args.loadgen}:", flush=True
        )
        floor = None
        for name, url, headers in targets:
            load(url, args.concurrency, 1, args.loadgen, headers)  # warm up: connections, token, caches
            r = load(url, args.concurrency, args.seconds, args.loadgen, headers)
            floor = floor or r["rps"]
            print(
                f"  {name:32} {r['rps']:>7} req/s   p50 {r['p50_ms']:7.2f} ms   p99 {r['p99_ms']:7.2f} ms"
                + ("" if name.startswith("floor") else f"   {r['rps'] / floor:.0%} of the floor")
                + (f"   ERRORS {r['errors']}" if r["errors"] else ""),
                flush=True,
            )
    finally:
        stop_all(procs[::-1])
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
