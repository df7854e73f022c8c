"""``serve --workers 2 --probe-every 1``: the first worker probes the tables' examples
in the background, and a scrape answered by either worker shows which table is up
and which is broken (its upstream answers 404)."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from prometheus_client.parser import text_string_to_metric_families

from tests.sandbox.test_cli import free_port, wait_for


class Partner(BaseHTTPRequestHandler):
    def do_GET(self):
        body, status = (b'{"id": 1}', 200) if self.path.startswith("/items") else (b'{"error": "gone"}', 404)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def probe_gauges(port: int) -> dict[str, float]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/metrics", headers={"Connection": "close"})
    with urllib.request.urlopen(request, timeout=5) as resp:
        text = resp.read().decode()
    return {
        s.labels["table"]: s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
        if s.name == "qlgate_table_probe_up"
    }


def test_the_gateway_probes_in_the_background(tmp_path):
    partner = ThreadingHTTPServer(("127.0.0.1", 0), Partner)
    threading.Thread(target=partner.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{partner.server_address[1]}"
    (tmp_path / "tables").mkdir()
    for name in ("items", "gone"):
        (tmp_path / "tables" / f"{name}.ql").write_text(
            f'-- Example: return select * from shop.{name} where id = "1";\n'
            f"create table shop.{name} on select get from '{base}/{name}?id={{id}}'"
        )
    (tmp_path / "config.json").write_text("{}")
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "qlgate",
        "serve",
        "--port",
        str(port),
        "--workers",
        "2",
        "--config",
        "config.json",
    ]
    command += ["--probe-every", "1", "--probe-state", str(tmp_path / "probe.json")]
    log = (tmp_path / "serve.log").open("w")
    gateway = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=log)
    try:
        wait_for(f"http://127.0.0.1:{port}/health", gateway)
        expected = {"shop.items": 1.0, "shop.gone": 0.0}
        deadline = time.monotonic() + 30
        while probe_gauges(port) != expected:  # one round probed and exported
            assert time.monotonic() < deadline, (tmp_path / "serve.log").read_text()[-2000:]
            time.sleep(0.3)
        time.sleep(1.5)  # the first worker's snapshot written (metrics_share.FLUSH_SECONDS)
        seen = [probe_gauges(port) for _ in range(8)]  # fresh connections: either worker answers
        assert all(g == expected for g in seen), seen
        assert "probe: shop.gone failed" in (tmp_path / "serve.log").read_text()
    finally:
        gateway.send_signal(signal.SIGTERM)
        assert gateway.wait(30) == 0
        partner.shutdown()
