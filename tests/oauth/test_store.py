"""The token store shared by a gateway's processes: two real processes (``qlgate
run``) on a cold token make one token request; the files are private; a directory
that is not safe is not used; and a token is used until shortly before it expires."""

from __future__ import annotations

import asyncio
import json
import os
import stat
import sys
from pathlib import Path

from qlgate.oauth.store import TokenStore, private_dir
from qlgate.oauth.tokens import Token
from tests.oauth.conftest import API_TABLE


def _workspace(tmp_path: Path, oauth, store: Path | bool) -> tuple[Path, Path]:
    tables = tmp_path / "tables"
    tables.mkdir(exist_ok=True)
    (tables / "api.ql").write_text(API_TABLE)
    config = tmp_path / "config.json"
    cache = str(store) if isinstance(store, Path) else store
    config.write_text(
        json.dumps({"base": oauth.base, "auth": {"test.app": oauth.entry()}, "oauth": {"cacheDir": cache}})
    )
    return tables, config


async def _qlgate_run(tables: Path, config: Path, q: str) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "qlgate",
        "run",
        "-e",
        f'return select * from api.items where q = "{q}"',
        "--tables",
        str(tables),
        "--config",
        str(config),
        "--diagnostics",
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def test_two_processes_on_a_cold_token_make_one_token_request(oauth, tmp_path):
    oauth.delay = 1.0  # both processes ask while the first request is out
    store = tmp_path / "store"
    tables, config = _workspace(tmp_path, oauth, store)
    outcomes = await asyncio.gather(*(_qlgate_run(tables, config, q) for q in ("one", "two")))
    for (code, out, err), q in zip(outcomes, ("one", "two")):
        assert code == 0, err
        assert json.loads(out) == q
        for token in oauth.tokens:  # --diagnostics shows the calls, never the token
            assert token not in out + err
    assert len(oauth.token_requests) == 1
    assert len(set(oauth.api_calls)) == 1
    # the store: a private directory, private files
    assert stat.S_IMODE(os.stat(store).st_mode) == 0o700
    files = list(store.iterdir())
    assert files and all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in files)
    # ``qlgate auth status`` reads it: cached, until when, never the token
    status = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "qlgate", "auth", "status", "--config", str(config), stdout=asyncio.subprocess.PIPE
    )
    out, _ = await asyncio.wait_for(status.communicate(), 60)
    (row,) = json.loads(out)
    assert row["name"] == "test.app" and row["cached"] is True and 7000 < row["expiresIn"] <= 7200
    assert not any(token in out.decode() for token in oauth.tokens)


async def test_without_a_shared_store_each_process_asks_for_its_own(oauth, tmp_path):
    """The other side of the test above: what the store saves."""
    tables, config = _workspace(tmp_path, oauth, False)
    for q in ("one", "two"):
        code, _, err = await _qlgate_run(tables, config, q)
        assert code == 0, err
    assert len(oauth.token_requests) == 2


def test_a_store_directory_open_to_others_is_closed_and_a_link_is_refused(tmp_path):
    shared = tmp_path / "open"
    shared.mkdir(mode=0o777)
    os.chmod(shared, 0o777)
    private_dir(shared, levels=1)
    assert stat.S_IMODE(os.stat(shared).st_mode) == 0o700
    link = tmp_path / "link"
    link.symlink_to(shared)
    assert TokenStore.open({"oauth": {"cacheDir": str(link)}}) is None
    assert TokenStore.open({"oauth": {"cacheDir": False}}) is None
    assert TokenStore.open({"oauth": {"cacheDir": str(tmp_path / "fine")}}) is not None


def test_the_store_reads_what_it_wrote_and_nothing_else(tmp_path):
    store = TokenStore(private_dir(tmp_path / "s", levels=1))
    token = Token("abc", 2000.0, 1000.0)
    store.write("k", token)
    assert store.read("k") == token
    (tmp_path / "s" / "torn.json").write_text('{"access_token": "x"')
    assert store.read("torn") is None and store.read("missing") is None


def test_a_token_is_used_until_shortly_before_it_expires():
    long = Token("t", expires_at=7200.0, obtained_at=0.0)  # eBay's two hours: a minute early
    assert long.fresh(7139.0) and not long.fresh(7140.0)
    short = Token("t", expires_at=10.0, obtained_at=0.0)  # a tenth of a short lifetime
    assert short.fresh(8.9) and not short.fresh(9.0)


def test_tokens_long_expired_are_removed_when_another_is_written(tmp_path):
    import time

    from qlgate.oauth.store import STALE_AFTER, TokenStore
    from qlgate.oauth.tokens import Token

    store = TokenStore(tmp_path)
    now = time.time()
    store.write("old", Token("t-old", now - STALE_AFTER - 10, now - STALE_AFTER - 7210))
    (tmp_path / "old.lock").write_text("")
    store.write("recent", Token("t-recent", now - 60, now - 7260))  # expired a minute ago: kept a while
    store.write("new", Token("t-new", now + 7200, now))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.json", "recent.json"]
    assert store.read("new").value == "t-new"
