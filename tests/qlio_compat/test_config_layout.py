"""ql.io's config layout (everything under ``tables``): a ``{config.…}`` key that a
table reads and the config lacks stands empty, as ql.io filled it, and ``qlgate
check`` warns about it instead of failing; a config value holding tokens of its own
is read as part of the URI template, as ql.io read it. Any other config keeps
qlgate's rule (an error naming the token)."""

from __future__ import annotations

import json

import pytest

from qlgate.cli import main as cli
from qlgate.tables.config_refs import UnresolvedConfig, qlio_layout
from tests.conftest import run

TABLE = (
    "create table site on select get from '{config.tables.shop.base}/items?siteid={config.tables.shop.siteid}&q={q}'"
)
OWN_URL = "create table ver on select get from '{config.tables.shop.url}' using defaults format = 'JSON'"


def test_the_layout_is_told_by_the_top_level_keys():
    assert qlio_layout({"tables": {"ebay": {}}}) and qlio_layout({"tables": {}, "auth": {}, "proxy": "http://p"})
    assert qlio_layout({"tables": {}, "ebay": {"environment": "emulator"}})
    assert not qlio_layout({"tables": {}, "gateway": {}}) and not qlio_layout({"weather": {}}) and not qlio_layout({})


async def test_a_missing_key_stands_empty_in_the_ql_io_layout(make_engine, upstream):
    upstream.reply("GET", "/items", json_body={"ok": 1})
    upstream.reply("GET", "/version", json_body={"v": 1})
    config = {"tables": {"shop": {"base": upstream.base, "url": upstream.base + "/version?fmt={format}"}}}
    engine = make_engine({"site.ql": TABLE, "ver.ql": OWN_URL}, config)
    assert await run(engine, "return select * from site where q = 'x'") == {"ok": 1}
    assert upstream.requests[-1].query == {"siteid": "", "q": "x"}
    assert await run(engine, "return select * from ver") == {"v": 1}
    assert upstream.requests[-1].query == {"fmt": "JSON"}  # the config value's own token, filled


async def test_any_other_config_keeps_the_error(make_engine, upstream):
    engine = make_engine({"site.ql": TABLE}, {"tables": {"shop": {"base": upstream.base}}, "gateway": {}})
    with pytest.raises(UnresolvedConfig, match=r"config\.tables\.shop\.siteid"):
        await run(engine, "return select * from site where q = 'x'")


def test_check_warns_and_passes_in_the_ql_io_layout(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tables").mkdir()
    (tmp_path / "routes").mkdir()
    (tmp_path / "tables" / "site.ql").write_text(TABLE)
    (tmp_path / "qlio.json").write_text(json.dumps({"tables": {"shop": {"base": "http://127.0.0.1:9"}}}))
    (tmp_path / "own.json").write_text(json.dumps({"tables": {"shop": {"base": "http://127.0.0.1:9"}}, "gateway": {}}))
    assert cli(["check", "--tables", "tables", "--routes", "routes", "--config", "qlio.json"]) == 0
    out = capsys.readouterr().out
    assert "{config.tables.shop.siteid} names nothing in the config (warning: ql.io's config layout" in out
    assert cli(["check", "--tables", "tables", "--routes", "routes", "--config", "own.json"]) == 1
