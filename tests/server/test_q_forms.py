"""The ways a script reaches ``/q`` on a real ``qlgate serve``: a GET whose URL
carries a script as long as ``gateway.maxScriptLength`` allows (a 1,000-value
``in (...)`` list is ~12 KB, past aiohttp's 8,190-byte request line), and a POST
of an HTML form or ``curl --data-urlencode``."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request

import pytest

from tests.sandbox.test_cli import free_port, stop, wait_for


@pytest.fixture
def gateway(tmp_path, observer):
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "partner.ql").write_text(
        'create table partner.item on select get from "{config.base}/call?type=partner.item&ms=0&job={id}"\n'
    )
    (tmp_path / "config.json").write_text(json.dumps({"base": observer.base, "gateway": {"maxScriptLength": 20000}}))
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "qlgate", "serve", "--port", str(port), "--workers", "1", *workspace(tmp_path)],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,  # the access log, unread: a pipe would fill and block the gateway
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    wait_for(f"{base}/health", proc)
    yield base
    stop(proc)


def workspace(root) -> list[str]:
    return ["--tables", str(root / "tables"), "--config", str(root / "config.json")]


def get(url: str) -> tuple[int, object]:
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_a_get_carries_a_script_as_long_as_max_script_length(gateway, observer):
    ids = ", ".join(f'"{i:04d}"' for i in range(1000))
    script = f"return select job from partner.item where id in ({ids});"
    url = f"{gateway}/q?" + urllib.parse.urlencode({"s": script})
    assert len(url) > 8190 and len(script) < 20000
    status, value = get(url)
    assert status == 200 and len(value) == 1000 and observer.calls["partner.item"] == 1000


def test_a_get_over_max_script_length_is_refused_with_its_reason(gateway):
    script = "return [" + ", ".join(['"ab"'] * 6000) + "];"  # 36,000 characters
    status, body = get(f"{gateway}/q?" + urllib.parse.urlencode({"s": script}))
    assert status == 400 and "maxScriptLength" in str(body)


def test_a_form_post_and_curl_data_urlencode_run_the_script(gateway):
    script = 'return {"n": 3, "text": "a+b & c=d%20"};'
    form = urllib.parse.urlencode({"s": script}).encode()
    request = urllib.request.Request(
        f"{gateway}/q", data=form, headers={"Content-Type": "application/x-www-form-urlencoded"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert json.loads(answer.read()) == {"n": 3, "text": "a+b & c=d%20"}
    curl = subprocess.run(
        ["curl", "-s", "--data-urlencode", f"s={script}", f"{gateway}/q"], capture_output=True, text=True, timeout=30
    )
    assert json.loads(curl.stdout) == {"n": 3, "text": "a+b & c=d%20"}


def test_curl_data_without_s_says_how_to_send_the_script(gateway):
    """``curl -d 'return 1;'`` labels the script a form; the answer says what to send
    instead, not a bare "missing query"."""
    curl = subprocess.run(
        ["curl", "-s", "-w", "\\n%{http_code}", "-d", 'return "1 + 2";', f"{gateway}/q"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    body, status = curl.stdout.rsplit("\n", 1)
    error = json.loads(body)
    assert status == "400" and error["type"] == "InvalidRequestBody", curl.stdout
    assert "no field s" in error["err"] and "--data-urlencode 's=" in error["err"] and "text/plain" in error["err"]
    as_text = subprocess.run(
        ["curl", "-s", "-H", "Content-Type: text/plain", "--data-binary", 'return "1 + 2";', f"{gateway}/q"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert json.loads(as_text.stdout) == "1 + 2"  # the way the error names works, its + kept
