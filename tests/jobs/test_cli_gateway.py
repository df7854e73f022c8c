"""``qlgate jobs`` against a real local gateway (``qlgate serve``, embedded
backend): the gateway found without ``--gateway`` (``$QLGATE_GATEWAY``, then the
local default address when a gateway answers there), ``jobs wait``'s exit
statuses (0 done, 1 a job failed, 3 its timeout, 130 Ctrl-C) and its progress
line on a terminal."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import sys
import time

import pytest

from tests.commands.helpers import at_terminal, environment, piped
from tests.processes import drain
from tests.sandbox.test_cli import free_port, stop, wait_for


@pytest.fixture(scope="module")
def gateway(tmp_path_factory):
    where = tmp_path_factory.mktemp("jobs-cli")
    (where / "tables").mkdir()
    (where / "tables" / "down.ql").write_text("create table down on select get from 'http://127.0.0.1:1/x'")
    (where / "routes").mkdir()
    config = {"jobs": {"database": str(where / "jobs.sqlite"), "slots": 2}, "defaultTimeout": 2000}
    (where / "config.json").write_text(json.dumps(config))
    port = free_port()
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "qlgate", "serve", "--port", str(port), "--workers", "1"),
            *("--tables", str(where / "tables"), "--routes", str(where / "routes")),
            *("--config", str(where / "config.json")),
        ],
        cwd=where,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={k: v for k, v in environment().items() if not k.startswith("EBAY_")},
    )
    drain(proc)
    base = f"http://127.0.0.1:{port}"
    wait_for(f"{base}/health", proc)
    yield base
    stop(proc)


def submit(base: str, script: str, *args: str) -> int:
    proc = piped("jobs", "submit", "-", "--type", "t", *args, stdin=script, QLGATE_GATEWAY=base)
    assert proc.returncode == 0, proc.stderr
    return int(proc.stdout)


def test_the_gateway_of_QLGATE_GATEWAY_and_a_result_in_any_format(gateway):
    job = submit(gateway, 'return [{"sku": "A", "n": 1}, {"sku": "B", "n": 2}];')
    waited = piped("jobs", "wait", str(job), "--timeout", "30", "--json", QLGATE_GATEWAY=gateway)
    assert waited.returncode == 0, waited.stderr
    assert waited.stderr == ""  # piped: no progress line
    assert [j["state"] for j in json.loads(waited.stdout)] == ["done"]
    result = piped("jobs", "result", str(job), "--format", "ndjson", QLGATE_GATEWAY=gateway)
    assert result.stdout.splitlines() == ['{"sku":"A","n":1}', '{"sku":"B","n":2}']
    table = piped("jobs", "result", str(job), "--format", "table", QLGATE_GATEWAY=gateway).stdout.splitlines()
    assert table[0].split() == ["sku", "n"] and table[2].split() == ["A", "1"]
    # every format as qlgate run prints the same value: one formatter (compact JSON had ", " here)
    script = 'return [{"sku": "A", "n": 1}, {"sku": "B", "n": 2}];'
    for fmt in ("json", "pretty", "table", "ndjson"):
        got = piped("jobs", "result", str(job), "--format", fmt, QLGATE_GATEWAY=gateway).stdout
        assert got == piped("run", "-e", script, "--format", fmt).stdout, fmt
    assert piped("jobs", "result", str(job), QLGATE_GATEWAY=gateway).stdout == '[{"sku":"A","n":1},{"sku":"B","n":2}]\n'


def test_the_local_default_gateway_when_one_answers_there(gateway, monkeypatch, capsys):
    from qlgate.cli import main
    from qlgate.commands import jobs as jobs_cli

    monkeypatch.delenv("QLGATE_GATEWAY", raising=False)
    monkeypatch.setattr(jobs_cli, "DEFAULT_GATEWAY", gateway)
    job = submit(gateway, "return 1;")
    assert main(["jobs", "wait", str(job), "--timeout", "30", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["id"] == job
    nobody = f"http://127.0.0.1:{free_port()}"
    monkeypatch.setattr(jobs_cli, "DEFAULT_GATEWAY", nobody)
    assert main(["jobs", "list"]) == 2  # usage: which cluster was not said
    error = json.loads(capsys.readouterr().err.splitlines()[-1])
    assert error["type"] == "UsageError" and "QLGATE_GATEWAY" in error["error"] and nobody in error["error"]


def test_the_environments_api_key_never_goes_to_whatever_answers_on_the_default_port(monkeypatch, capsys):
    """Any local user can bind the default port: a key from $QLGATE_API_KEY goes only to a
    gateway the user named (--gateway, $QLGATE_GATEWAY)."""
    import http.server
    import threading

    from qlgate.cli import main
    from qlgate.commands import jobs as jobs_cli

    seen: list[str | None] = []

    class Impostor(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # http.server calls it by this name
            seen.append(self.headers.get("Authorization"))
            body = b'{"status": "ok"}' if self.path == "/health" else b"[]"
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Impostor)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        monkeypatch.delenv("QLGATE_GATEWAY", raising=False)
        monkeypatch.setenv("QLGATE_API_KEY", "k" * 24)
        monkeypatch.setattr(jobs_cli, "DEFAULT_GATEWAY", f"http://127.0.0.1:{server.server_address[1]}")
        main(["jobs", "list", "--json"])
        assert len(seen) >= 2 and not any(seen), seen  # /health, then /jobs: no key either time
        seen.clear()
        monkeypatch.setenv("QLGATE_GATEWAY", jobs_cli.DEFAULT_GATEWAY)  # named: the key goes
        main(["jobs", "list", "--json"])
        assert seen == ["Bearer " + "k" * 24]
    finally:
        server.shutdown()
    capsys.readouterr()


def test_wait_exits_3_on_its_timeout_and_1_for_a_failed_job(gateway):
    later = submit(gateway, "return 1;", "--not-before", "+1h")
    started = time.monotonic()
    timed_out = piped("jobs", "wait", str(later), "--timeout", "1", QLGATE_GATEWAY=gateway)
    assert timed_out.returncode == 3, timed_out.stderr
    assert time.monotonic() - started < 30
    assert "still queued" in json.loads(timed_out.stderr.splitlines()[-1])["error"]
    failing = submit(gateway, "return select * from down;", "--max-attempts", "1")
    failed = piped("jobs", "wait", str(failing), "--timeout", "60", QLGATE_GATEWAY=gateway)
    assert failed.returncode == 1 and " failed " in failed.stdout, failed.stdout + failed.stderr
    usage = piped("jobs", "limits", "t", QLGATE_GATEWAY=gateway)  # the number is missing
    assert usage.returncode == 2 and "the number is missing" in usage.stderr


def test_wait_draws_progress_at_a_terminal(gateway):
    done = submit(gateway, "return 1;")
    soon = submit(gateway, "return 2;", "--not-before", "+2s")
    status, out = at_terminal("jobs", "wait", str(done), str(soon), "--timeout", "60", QLGATE_GATEWAY=gateway)
    assert status == 0, out
    assert "1/2 ended · 0 queued" in out or "1/2 ended · 1 queued" in out, out
    assert "\r\x1b[K" in out  # the line is redrawn in place, and cleared at the end
    listing = out.rsplit("\x1b[K", 1)[1].split()
    assert listing.count("done") == 2


def test_ctrl_c_during_a_wait_exits_130_without_a_traceback(gateway):
    """Ctrl-C only once the wait is up (its progress line drawn): under load the command
    once took longer to start than a fixed 30 s, got SIGINT while importing and failed. The
    bounds scale with how long one CLI command took here, now (``submit``)."""
    began = time.monotonic()
    later = submit(gateway, "return 1;", "--not-before", "+1h")
    bound = 30 + 20 * (time.monotonic() - began)
    main, child = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "qlgate", "jobs", "wait", str(later)],
        stdin=subprocess.DEVNULL,
        stdout=child,
        stderr=child,
        env=environment(QLGATE_GATEWAY=gateway, TERM="xterm"),
    )
    os.close(child)
    try:
        out = b""
        deadline = time.monotonic() + bound
        while b"ended" not in out:  # waiting: the progress line is up
            left = deadline - time.monotonic()
            assert left > 0 and proc.poll() is None, f"no progress line within {bound:.0f} s: {out!r}"
            if select.select([main], [], [], left)[0]:
                out += os.read(main, 4096)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=bound) == 130
        try:
            out += os.read(main, 65536)
        except OSError:
            pass
        assert b"Traceback" not in out
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(main)


def test_the_jobs_help_shows_examples_and_the_default_gateway():
    shown = piped("jobs", "--help").stdout
    assert "QLGATE_GATEWAY" in shown and "http://127.0.0.1:3000" in shown
    assert "examples:\n  qlgate serve &" in shown
