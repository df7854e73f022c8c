"""Callers run queries, never code (issue 13, findings 1–3): a caller's script
cannot load modules or files or read private config; deployer code loads only
from inside the deployment's trees."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from qlgate.engine.engine import Engine
from qlgate.errors import QlError
from qlgate.trust import CallerScriptRefused, Trust
from tests.conftest import Reply

from .conftest import SECRET

ITEMS = {"items.ql": "create table items on select get from '{config.base}/items?q={q}'"}


async def q(client, script, method="GET"):
    if method == "GET":
        response = await client.get("/q", params={"s": script})
    else:
        response = await client.post("/q", data=script.encode(), headers={"Content-Type": "text/plain"})
    async with response:
        return response.status, await response.json()


# ------------------------------------------------------------------ caller scripts load no code


async def test_require_of_an_installed_module_is_refused_and_nothing_runs(gateway, tmp_path):
    marker = tmp_path / "pwned"
    script = f'o = require("os"); return o.system("touch {marker}");'
    async with gateway(ITEMS) as client:
        status, body = await q(client, script)
    assert status == 400 and body["type"] == "CallerScriptRefused" and body["line"] == 1
    assert body["clause"] == "require" and "may not load code" in body["err"]
    assert not marker.exists()


async def test_require_of_a_file_by_path_is_refused(gateway, tmp_path):
    evil = tmp_path / "evil.py"
    marker = tmp_path / "loaded"
    evil.write_text(f"open({str(marker)!r}, 'w').write('x')\ndef f(ctx): return 1\n")
    async with gateway(ITEMS) as client:
        for name in (str(evil), "../" * 12 + str(evil).lstrip("/"), "evil.py"):
            status, body = await q(client, f'u = require("{name}");\nreturn u.f();')
            assert status == 400 and body["type"] == "CallerScriptRefused" and body["line"] == 1
    assert not marker.exists()


@pytest.mark.parametrize(
    "clause",
    [
        "using patch '{path}'",
        "auth using '{path}'",
        "using bodyTemplate '{path}' type 'application/json'",
    ],
)
async def test_inline_tables_may_not_name_files(gateway, upstream, tmp_path, clause):
    """The finding: ``using bodyTemplate "/etc/passwd"`` sent the file upstream."""
    evil = tmp_path / "evil.py"
    marker = tmp_path / "loaded"
    evil.write_text(f"open({str(marker)!r}, 'w').write('x')\n")
    path = "/etc/passwd" if "bodyTemplate" in clause else str(evil)
    script = (
        f"create table t on select post to '{upstream.base}/echo' {clause.format(path=path)};\nreturn select * from t;"
    )
    async with gateway(ITEMS) as client:
        status, body = await q(client, script)
    assert status == 400 and body["type"] == "CallerScriptRefused" and body["line"] == 1
    assert clause.split(" '")[0] in body["err"]
    assert upstream.requests == [] and not marker.exists()


async def test_no_error_tells_whether_a_path_outside_exists(tmp_path):
    """Deployer code too: a name that leads outside is refused before it is looked up."""
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "there.mu").write_text("x")
    root = _tables(tmp_path / "tables", {"keep.txt": ""})
    messages = []
    for name in ("../outside/there.mu", "../outside/not-there.mu", "/etc/passwd", "/etc/not-there"):
        (root / "t.ql").write_text(
            f"create table t on insert post to 'http://x/' using bodyTemplate '{name}' type 'text/plain'"
        )
        engine = Engine(tables=root, config={})
        messages.append(engine.problems[0].message.replace(name, "NAME"))
        await engine.close()
    assert messages[0] == messages[1] and messages[2] == messages[3], messages


async def test_an_inline_table_cannot_steer_the_connection(gateway, upstream):
    """Host (another virtual host behind an allowed address) and the hop-by-hop headers
    are the gateway's, whether written out or built from a variable."""
    upstream.reply("GET", "/items", json_body={"ok": 1})
    async with gateway(ITEMS) as client:
        for header in ("Host", "Transfer-Encoding", "Proxy-Authorization", "X-Forwarded-For"):
            script = (
                f"create table t on select get from '{upstream.base}/items' "
                f"using headers '{header}' = 'internal.admin'; return select * from t;"
            )
            status, body = await q(client, script)
            assert status == 400 and body["clause"] == "using headers" and header in body["err"], body
        script = (
            f"h = \"Host\"; create table t on select get from '{upstream.base}/items' "
            "using headers '{h}' = 'internal.admin'; return select * from t;"
        )
        status, body = await q(client, script)
        assert status == 400 and body["type"] == "InvalidParameter" and "'host'" in body["err"], body
    assert upstream.requests == []


@pytest.mark.parametrize("name", ["Host: admin.internal", "X-Real-IP: 10.0.0.1", "Forwarded:for=1", "X A", "X/Y"])
async def test_a_header_name_that_is_not_a_token_is_a_400_naming_it(gateway, upstream, name):
    """``'Host: admin.internal'`` passed the list of headers a caller may not set and put a
    second ``host:`` line on the wire: a name must be an RFC 9110 token, whoever wrote it."""
    upstream.reply("GET", "/items", json_body={"ok": 1})
    async with gateway(ITEMS) as client:
        literal = (
            f"create table t on select get from '{upstream.base}/items' "
            f"using headers '{name}' = 'x'; return select * from t;"
        )
        status, body = await q(client, literal)
        assert status == 400 and "not an HTTP token" in body["err"] and body["line"] == 1, body
        built = (
            f"h = \"{name}\"; create table t on select get from '{upstream.base}/items' "
            "using headers '{h}' = 'x'; return select * from t;"
        )
        status, body = await q(client, built)
        assert status == 400 and body["type"] == "InvalidParameter" and "not an HTTP token" in body["err"], body
    assert upstream.requests == []


async def test_control_characters_written_into_a_header_are_refused_when_the_table_compiles(gateway, upstream):
    async with gateway(ITEMS) as client:
        for value in ("b\x01c", "b\r\nX-Injected: 1"):
            script = (
                f"create table t on select get from '{upstream.base}/x' using headers 'A' = '{value}';\n"
                "return select * from t;"
            )
            status, body = await q(client, script, method="POST")
            assert status == 400 and "control character" in body["err"] and body["line"] == 1, body
    assert upstream.requests == []


# ------------------------------------------------------------------ config stays the deployer's


@pytest.mark.parametrize(
    "script",
    [
        'return "{config.svc.token}";',
        'return "{config}";',
        'return {"a": ["{config.svc.token}"]};',
        'return "{config..token}";',
        'x = select * from items where q = "{config.svc.token}"; return x;',
        "create table t on select get from '{config.base}/items?q={config.svc.token}'; return select * from t;",
        "create table t on select get from '{config.base}/items' using headers 'X-T' = '{config.svc.token}';"
        " return select * from t;",
    ],
)
async def test_caller_scripts_cannot_read_private_config(gateway, upstream, script):
    upstream.reply("GET", "/items", json_body={"ok": 1})
    async with gateway(ITEMS, {"gateway": {"adhoc": {"publicConfig": ["base"]}}}) as client:
        status, body = await q(client, script)
    assert status == 400 and body["type"] == "CallerScriptRefused" and body["clause"] == "config", body
    assert "gateway.adhoc.publicConfig" in body["err"]
    assert SECRET not in json.dumps(body) and upstream.requests == []


async def test_config_built_at_run_time_sees_only_public_keys(gateway, upstream):
    """``{{name}.x}``: the reference is built while the script runs, so no compile-time
    check can see it; the config a caller's script reads holds only public keys."""
    upstream.reply("GET", "/items", json_body={"ok": 1})
    async with gateway(ITEMS, {"gateway": {"adhoc": {"publicConfig": ["svc.site"]}}}) as client:
        status, body = await q(client, 'c = "config"; return {"t": "{{c}.svc.token}", "s": "{{c}.svc.site}"};')
        assert status == 200 and body == {"s": "EBAY-US"}
        status, body = await q(client, 'return "{config.svc.site}";')
        assert status == 200 and body == "EBAY-US"
        # a deployer's table still reads all of it
        status, body = await q(client, 'return select * from items where q = "x";')
        assert status == 200 and body == {"ok": 1}


async def test_routes_are_the_deployers_and_read_config(gateway, upstream):
    routes = {
        "r.ql": 'return "{config.svc.site}" via route "/site" using method get',
        "p.ql": 'return {"site": "{config.svc.site}"} via route "/site" using method post',
    }
    async with gateway(ITEMS, routes=routes) as client:
        async with client.get("/site") as resp:
            assert resp.status == 200 and await resp.json() == "EBAY-US"
        # a caller's parameter, header or body member named config does not stand in for it
        async with client.get("/site", params={"config": "x"}, headers={"config": "y"}) as resp:
            assert await resp.json() == "EBAY-US"
        async with client.post("/site", json={"config": {"svc": {"site": "EVIL"}}}) as resp:
            assert await resp.json() == {"site": "EBAY-US"}


async def test_a_caller_can_neither_shadow_nor_change_any_part_of_the_config(gateway, upstream):
    """A query parameter named ``config.svc.key`` must not stand in for that key in a
    table's URI, nor a dotted parameter plant members into the config every request shares."""
    upstream.echo("POST", "/post")
    upstream.reply("GET", "/k", json_body={"ok": 1})
    tables = {
        "k.ql": "create table keyed on select get from '{config.base}/k?k={^config.svc.token}'",
        "post.ql": "create table poster on insert post to '{config.base}/post' "
        "using bodyTemplate 'post.mu' type 'application/json'",
        "post.mu": '{"a": "{{params.a}}"}',
    }
    routes = {"cfg.ql": 'return "{config}" via route "/cfg" using method get'}  # the deployer's own view
    async with gateway(tables, routes=routes) as client:
        async with client.get("/q", params={"s": "return select * from keyed;", "config.svc.token": "SHADOW"}) as r:
            assert r.status == 200
        async with client.post(
            "/q",
            params={"config.svc.planted": "EVIL", "config.planted": "EVIL"},
            data='insert into poster (a, config.svc.p2) values ("x", "EVIL2");',
            headers={"Content-Type": "text/plain"},
        ) as r:
            assert r.status == 200, await r.text()
        async with client.get("/cfg") as r:
            config = await r.json()
    assert upstream.requests[0].query == {"k": SECRET}
    assert config["svc"] == {"token": "****", "site": "EBAY-US"} and "planted" not in config


async def test_a_body_member_cannot_stand_in_for_a_table_a_route_reads(gateway, upstream):
    upstream.reply("GET", "/items", json_body={"real": 1})
    routes = {"r.ql": 'return select * from items where q = "x" via route "/read" using method post'}
    async with gateway(ITEMS, routes=routes) as client, client.post("/read", json={"items": {"fake": 1}}) as resp:
        assert resp.status == 200 and await resp.json() == {"real": 1}
    assert upstream.paths() == ["/items"]


async def test_an_upstream_echoing_a_secret_does_not_hand_it_to_the_caller(gateway, upstream):
    tables = {
        "echo.ql": "create table echo on select get from '{config.base}/echo' "
        "using headers 'X-Token' = '{config.svc.token}'"
    }
    upstream.handler(
        "GET", "/echo", lambda req, body: Reply(body=json.dumps({"seen": req.headers["X-Token"]}).encode())
    )
    async with gateway(tables, {"gateway": {"adhoc": {"publicConfig": ["svc"]}}}) as client:
        status, body = await q(client, "return select * from echo;")
        assert status == 200 and body == {"seen": "****"}
        # masking the answer is not enough: a filter would compare the secret without printing it
        oracle = (
            'r = select * from echo; x = [{"s": "{r.seen}"}];\n'
            f'return {{"eq": "{{x[?(@.s == \'{SECRET}\')]}}", "ge": "{{x[?(@.s >= \'a\')]}}",'
            ' "lt": "{x[?(@.s < \'a\')]}"};'
        )
        status, body = await q(client, oracle)
        assert status == 200 and body == {"lt": [{"s": "****"}]}, body  # the script saw only ****
        # an echo that spells it with escapes is masked once decoded
        escaped = "".join(f"\\u{ord(c):04x}" for c in SECRET)
        upstream.handler("GET", "/echo", lambda req, body: Reply(body=(f'{{"seen": "{escaped}"}}').encode()))
        status, body = await q(client, oracle)
        assert status == 200 and body == {"lt": [{"s": "****"}]}, body
        # a secret under a public key stays masked in the config a caller's script reads
        status, body = await q(client, 'return {"t": "{config.svc.token}", "s": "{config.svc.site}"};')
        assert status == 200 and body == {"t": "****", "s": "EBAY-US"}


# ------------------------------------------------------------------ deployer code stays in its trees


def _tables(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def _evil_module(directory: Path, marker: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    evil = directory / "evil.py"
    evil.write_text(f"open({str(marker)!r}, 'w').write('x')\ndef validate_param(ctx): return True\n")
    return evil


@pytest.mark.parametrize("name", ["ABS", "../../outside/evil.py", "link.py", "evil.pyc", "x" * 5000 + ".py"])
async def test_patches_load_only_from_inside_the_tables_tree(tmp_path, name):
    marker = tmp_path / "loaded"
    evil = _evil_module(tmp_path / "outside", marker)
    root = _tables(tmp_path / "tables" / "shop", {"keep.txt": ""}).parent
    (root / "shop" / "link.py").symlink_to(evil)
    (root / "shop" / "evil.pyc").write_bytes(b"\x00" * 16)
    patch = str(evil) if name == "ABS" else name
    (root / "shop" / "t.ql").write_text(f"create table t on select get from 'http://x/' using patch '{patch}'")
    engine = Engine(tables=root, config={})
    try:
        assert len(engine.tables) == 0 and len(engine.problems) == 1
        message = engine.problems[0].message
        assert any(s in message for s in ("absolute path", "leads outside", "must be a .py", "characters long"))
        assert not marker.exists()
    finally:
        await engine.close()


async def test_body_templates_are_files_inside_the_tree_and_text(tmp_path):
    root = _tables(tmp_path / "tables", {"dir.mu/x": "", "bin.mu": "", "ok.mu": "{{params.q}}"})
    (root / "bin.mu").write_bytes(b"\xff\xfe\x00binary")
    for template, expected in (
        ("/etc/passwd", "absolute path"),
        ("../../../../../../etc/passwd", "leads outside"),
        ("dir.mu", "is not a file"),
        ("bin.mu", "not UTF-8"),
        ("ok.mu", None),
    ):
        (root / "t.ql").write_text(
            f"create table t on insert post to 'http://x/' using bodyTemplate '{template}' type 'text/plain'"
        )
        engine = Engine(tables=root, config={})
        try:
            problems = [p.message for p in engine.problems]
            if expected is None:
                assert problems == [] and "t" in engine.tables
            else:
                assert len(problems) == 1 and expected in problems[0], problems
        finally:
            await engine.close()


async def test_a_deployer_script_requires_files_beside_it_never_installed_modules(tmp_path):
    (tmp_path / "u.py").write_text("def up(ctx, s): return s.upper()\n")
    engine = Engine(config={})
    try:
        result = await engine.execute('u = require("u.py"); return u.up("a");', base_dir=tmp_path)
        assert result.value == "A"
        for name in ("os", "json.py", "/etc/passwd", "../x.py"):
            with pytest.raises(QlError) as refused:
                await engine.execute(f'u = require("{name}"); return u.up("a");', base_dir=tmp_path)
            assert refused.value.status == 400 and refused.value.line == 1
    finally:
        await engine.close()


def test_qlgate_run_never_imports_an_installed_module(tmp_path):
    marker = tmp_path / "ran"
    script = f'o = require("os"); return o.system("touch {marker}");'
    done = subprocess.run(
        [sys.executable, "-m", "qlgate", "run", "-e", script], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1 and not marker.exists()
    error = json.loads(done.stderr.strip().splitlines()[-1])
    assert error["status"] == 400 and "os.py" in error["error"]


# ------------------------------------------------------------------ the policy object itself


def test_trust_for_callers_reads_gateway_adhoc():
    trust = Trust.for_callers(
        {
            "gateway": {
                "adhoc": {
                    "inlineTables": False,
                    "publicConfig": ["config.a.b", "c"],
                    "allowedHosts": ["api.example.com:443"],
                }
            }
        },
        [],
    )
    assert trust.is_caller and not trust.inline_tables and trust.public_config == ("a.b", "c")
    assert trust.allowed_hosts.allows("https://api.example.com/x") and not trust.allowed_hosts.allows("http://h/")
    assert trust.config_view({"a": {"b": 1, "secret": 2}, "c": [3], "d": 4}) == {"a": {"b": 1}, "c": [3]}
    assert Trust.deployer().config_view({"d": 4}) == {"d": 4}
    with pytest.raises(QlError):
        Trust.for_callers({"gateway": {"adhoc": {"publicConfig": "a"}}}, [])


def test_a_recorded_policy_narrows_a_workers_own():
    """A worker runs a caller's job under what both the job's gateway and it allow."""
    worker = Trust.for_callers(
        {"gateway": {"adhoc": {"allowedHosts": ["*.example.com"], "publicConfig": ["shop", "site"]}}}, []
    )
    job = Trust.for_callers(
        {
            "gateway": {
                "adhoc": {
                    "allowedHosts": ["api.example.com", "internal"],
                    "inlineTables": False,
                    "publicConfig": ["shop.base"],
                }
            }
        },
        [],
    )
    both = worker.narrowed(job.to_record())
    assert both.allowed_hosts.allows("https://api.example.com/x")
    assert not both.allowed_hosts.allows("http://internal/x")  # the worker's list says no
    assert not both.allowed_hosts.allows("https://other.example.com/")  # the job's list says no
    assert not both.inline_tables and both.public_config == ("shop.base",)
    assert worker.narrowed(None) is worker


def test_the_compile_cache_keeps_callers_and_deployer_apart(tmp_path):
    engine = Engine(config={"k": "v"})
    caller = Trust.for_callers({}, [])
    assert engine.compile('return "{config.k}";').trust.kind == "deployer"
    with pytest.raises(CallerScriptRefused):
        engine.compile('return "{config.k}";', trust=caller)
    with pytest.raises(CallerScriptRefused):  # a failed compile is cached, and raised again
        engine.compile('return "{config.k}";', trust=caller)
