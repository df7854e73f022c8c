"""``qlgate probe`` against real upstreams on 127.0.0.1: a table that answers is ok
and its shape is kept; one whose upstream changed its answer's shape is reported
changed (with the paths it lost), one whose upstream answers 404 failed, a retired
table failed with its date before anything is sent, an example that writes is never
run, and the budget per API type holds."""

from __future__ import annotations

import json
from types import SimpleNamespace

from qlgate.commands.probe import _probe, compare, shape
from tests.commands.helpers import ROOT, piped

TABLES = {
    "items.ql": '-- Items.\n-- Example: return select * from shop.items where id = "1";\n'
    "create table shop.items on select get from '{config.base}/items?id={id}'",
    "gone.ql": '-- Gone.\n-- Example: return select * from shop.gone where id = "1";\n'
    "create table shop.gone on select get from '{config.base}/gone?id={id}'",
    "old.ql": '-- Old.\n-- Example: return select * from shop.old where id = "1";\n'
    "create table shop.old on select get from '{config.base}/old?id={id}' retired '2025-01-06' use 'shop.items'",
    "add.ql": '-- Add.\n-- Example: insert into shop.add (id) values ("1");\n'
    "create table shop.add on insert post to '{config.base}/add'",
    "more.ql": '-- More.\n-- Example: return select * from other.more where id = "1";\n'
    "create table other.more on select get from '{config.base}/more?id={id}'",
    "more2.ql": '-- More.\n-- Example: return select * from other.more2 where id = "1";\n'
    "create table other.more2 on select get from '{config.base}/more?id={id}'",
}


async def probe(tmp_path, upstream, capsys, **options) -> tuple[int, dict[str, dict]]:
    (tmp_path / "tables").mkdir(exist_ok=True)
    for name, text in TABLES.items():
        (tmp_path / "tables" / name).write_text(text)
    (tmp_path / "config.json").write_text(json.dumps({"base": upstream.base}))
    args = SimpleNamespace(
        tables=str(tmp_path / "tables"),
        routes=None,
        config=str(tmp_path / "config.json"),
        prefixes=[],
        budget=20,
        timeout=10.0,
        state=str(tmp_path / "state.json"),
        json=True,
    )
    vars(args).update(options)
    status = await _probe(args)
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return status, {r["table"]: r for r in lines}


async def test_probe_reports_ok_changed_failed_and_retired(tmp_path, upstream, capsys):
    upstream.reply("GET", "/items", json_body={"id": "1", "price": {"value": 3.5}, "tags": ["a"]})
    upstream.reply("GET", "/gone", status=404, json_body={"error": "no such call"})
    upstream.reply("GET", "/more", json_body={"n": 1})
    status, first = await probe(tmp_path, upstream, capsys)
    assert status == 1  # shop.gone failed
    assert first["shop.items"]["status"] == "ok" and first["shop.items"]["calls"] == 1
    assert first["shop.gone"]["status"] == "failed" and first["shop.gone"]["upstream_status"] == 404
    assert first["shop.old"]["status"] == "failed" and "retired on 2025-01-06" in first["shop.old"]["error"]
    assert first["shop.add"] == {"table": "shop.add", "api": "shop", "status": "skipped", "why": "the example writes"}
    assert not any(r.path in ("/old", "/add") for r in upstream.requests)  # nothing sent for either

    upstream.reply("GET", "/items", json_body={"id": "1", "cost": {"value": 3.5}, "tags": ["a"]})  # renamed
    status, second = await probe(tmp_path, upstream, capsys)
    assert second["shop.items"]["status"] == "changed"
    assert second["shop.items"]["lost"] == ["price.value:number", "price:object"]
    assert second["shop.items"]["gained"] == ["cost.value:number", "cost:object"]
    state = json.loads((tmp_path / "state.json").read_text())
    assert "price:object" in state["shop.items"]  # a changed answer is not the new good one


async def test_the_budget_per_api_type_holds(tmp_path, upstream, capsys):
    upstream.reply("GET", "/more", json_body={"n": 1})
    _, reports = await probe(tmp_path, upstream, capsys, prefixes=["other."], budget=1)
    assert [reports[t]["status"] for t in ("other.more", "other.more2")] == ["ok", "skipped"]
    assert sum(1 for r in upstream.requests if r.path == "/more") == 1


def test_shapes_fold_list_items_and_ignore_nulls():
    assert shape({"a": [{"b": 1}, {"b": 2, "c": None}]}) == {
        ".:object",
        "a:array",
        "a[]:object",
        "a[].b:number",
        "a[].c:null",
    }
    assert compare({"a:null"}, ["a:string"]) == {}
    assert compare({"b:string"}, ["a:string"]) == {"lost": ["a:string"], "gained": ["b:string"]}


def test_the_command_against_the_ebay_emulator(tmp_path):
    """The shipped eBay tables, the built-in emulator: Browse's examples answer."""
    done = piped("probe", "ebay.buy.browse", "--budget", "3", "--json", "--state", str(tmp_path / "s.json"), cwd=ROOT)
    assert done.returncode in (0, 1), done.stderr
    reports = [json.loads(line) for line in done.stdout.splitlines()]
    assert reports and sum(r["status"] == "ok" for r in reports) >= 1, done.stdout + done.stderr
    assert sum(r.get("calls", 0) for r in reports if r["api"] == "ebay.buy.browse") <= 3 + 1
