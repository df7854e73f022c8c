"""``qlgate auth login``: the consent URL, the redirect taken on a loopback listener
(driven by a client that follows the consent URL to the server's /authorize, which
redirects) or pasted on stdin, the code exchanged, the refresh token kept in a 0600
file or printed as an export line for the variable the entry names."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import stat
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from qlgate.oauth import login
from qlgate.oauth.entries import parse_entry
from qlgate.oauth.login import LoginFailed
from tests.oauth.oauth_server import CLIENT_ID, SCOPES


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _config(tmp_path: Path, entry: dict) -> Path:
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"auth": {"test.user": entry}}))
    return path


async def _start(*args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "qlgate",
        "auth",
        "login",
        "test.user",
        "--no-browser",
        *args,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def _read_until(process: asyncio.subprocess.Process, marker: str) -> list[str]:
    assert process.stderr is not None
    lines: list[str] = []
    while not any(marker in line for line in lines):
        line = (await asyncio.wait_for(process.stderr.readline(), 30)).decode()
        assert line, "the command ended early: " + "".join(lines)
        lines.append(line)
    return lines


def _consent_url(lines: list[str]) -> str:
    return next(line.strip() for line in lines if line.strip().startswith("http"))


async def test_login_with_the_loopback_listener_writes_the_refresh_token_file_0600(oauth, tmp_path):
    port = _free_port()
    file = tmp_path / "new" / "dir" / "user.token"
    entry = oauth.entry(
        "oauth2-refresh-token",
        refreshToken=None,
        refreshTokenFile=str(file),
        authorizeUrl=f"{oauth.base}/authorize",
        redirectUri=f"http://127.0.0.1:{port}/callback",
    )
    process = await _start("--config", str(_config(tmp_path, entry)))
    lines = await _read_until(process, "Waiting for the redirect")
    url = _consent_url(lines)
    async with aiohttp.ClientSession() as browser:
        # a request that is not this login's (another state) is answered and ignored
        async with browser.get(f"http://127.0.0.1:{port}/callback?code=forged&state=other") as forged:
            assert forged.status == 400
        async with browser.get(url) as landed:  # /authorize redirects to the listener
            assert landed.status == 200 and "Consent received" in await landed.text()
            assert str(landed.url).startswith(f"http://127.0.0.1:{port}/callback?code=")
    out, err = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 0, err.decode()
    assert json.loads(out) == {"entry": "test.user", "refreshTokenFile": str(file)}
    token = file.read_text().strip()
    assert token in oauth.refresh_tokens and token.startswith("refresh-")
    assert stat.S_IMODE(file.stat().st_mode) == 0o600
    assert stat.S_IMODE(file.parent.stat().st_mode) == 0o700
    assert token not in err.decode()
    exchange = oauth.token_requests[-1]
    assert exchange["grant_type"] == "authorization_code" and exchange["redirect_uri"] == entry["redirectUri"]


async def test_login_by_pasting_the_redirect_prints_the_export_line_of_the_entrys_variable(oauth, tmp_path):
    entry = oauth.entry(
        "oauth2-refresh-token",
        refreshToken="${QLGATE_TEST_USER_REFRESH}",
        authorizeUrl=f"{oauth.base}/authorize",
        ruName="Test_Company-TestApp-PRD-abc",  # eBay's RuName: not a URL, so the user pastes
    )
    # the RuName stands for a page of the provider's; the test's /authorize sends it nowhere real
    process = await _start("--config", str(_config(tmp_path, entry)), "--paste")
    lines = await _read_until(process, "paste here")
    url = _consent_url(lines)
    query = parse_qs(urlsplit(url).query)
    assert query["redirect_uri"] == ["Test_Company-TestApp-PRD-abc"]
    async with aiohttp.ClientSession() as browser:
        async with browser.get(url, allow_redirects=False) as answer:
            assert answer.status == 302
            redirected = answer.headers["Location"]
    assert process.stdin is not None
    process.stdin.write(redirected.encode() + b"\n")
    await process.stdin.drain()
    out, err = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 0, err.decode()
    variable, _, token = out.decode().strip().removeprefix("export ").partition("=")
    assert variable == "QLGATE_TEST_USER_REFRESH" and token in oauth.refresh_tokens


async def test_a_pasted_redirect_of_another_login_is_refused(oauth, tmp_path):
    entry = oauth.entry(
        "oauth2-refresh-token", authorizeUrl=f"{oauth.base}/authorize", redirectUri="https://example.test/cb"
    )
    process = await _start("--config", str(_config(tmp_path, entry)), "--paste")
    await _read_until(process, "paste here")
    assert process.stdin is not None
    process.stdin.write(b"https://example.test/cb?code=abc&state=not-this-one\n")
    await process.stdin.drain()
    out, err = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 1 and not out
    assert json.loads(err.decode().strip().splitlines()[-1])["type"] == "LoginFailed"
    assert not oauth.token_requests


def test_the_consent_url_asks_for_a_code_with_the_entrys_client_redirect_and_scopes():
    entry = parse_entry(
        "u",
        {
            "type": "oauth2-refresh-token",
            "tokenUrl": "https://auth.test/token",
            "authorizeUrl": "https://auth.test/authorize",
            "clientId": CLIENT_ID,
            "clientSecret": "s",
            "redirectUri": "http://127.0.0.1:8765/cb",
            "scopes": list(SCOPES),
        },
        login=True,
    )
    consent = login.consent(entry)
    parts = urlsplit(consent.url)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == "https://auth.test/authorize"
    assert "scope=" + "%20".join(s.replace(":", "%3A").replace("/", "%2F") for s in SCOPES) in parts.query
    query = {k: v[0] for k, v in parse_qs(parts.query).items()}
    assert query == {
        "client_id": CLIENT_ID,
        "redirect_uri": "http://127.0.0.1:8765/cb",
        "response_type": "code",
        "state": consent.state,
        "scope": " ".join(SCOPES),
    }
    assert len(consent.state) >= 32 and login.consent(entry).state != consent.state
    assert login.loopback_port(entry) == 8765


def test_the_code_of_a_redirect():
    assert login.code_of("https://x/cb?code=v%5E1.1%23abc&state=s", "s", require_state=True) == "v^1.1#abc"
    assert login.code_of("just-the-code", "s", require_state=False) == "just-the-code"
    with pytest.raises(LoginFailed, match="state"):
        login.code_of("https://x/cb?code=c", "s", require_state=True)
    with pytest.raises(LoginFailed, match="access_denied"):
        login.code_of("https://x/cb?error=access_denied&state=s", "s", require_state=True)


def test_the_refresh_token_file_replaces_a_link_instead_of_writing_through_it(tmp_path):
    target = tmp_path / "elsewhere"
    target.write_text("keep me")
    link = tmp_path / "user.token"
    link.symlink_to(target)
    login.save_refresh_token(link, "secret-refresh")
    assert target.read_text() == "keep me"
    assert not link.is_symlink() and link.read_text() == "secret-refresh\n"
    assert stat.S_IMODE(os.stat(link).st_mode) == 0o600
