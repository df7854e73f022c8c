"""The sandbox's bounds, each a typed error naming the JavaScript file and line:
a runaway loop, a memory bomb, require() of what is not a relative file of the tree,
the host's process and clock, a template that throws, a patch that answers the
wrong type. The limits here are small so the suite stays quick; they are what a
deployment sets with ``set_limits``."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from qlgate.js import sandbox
from qlgate.js.ejs import EjsTemplate
from qlgate.js.errors import JsError, JsMemoryExceeded, JsTimeout
from qlgate.js.modules import JsModule


@pytest.fixture(autouse=True)
def small_limits():
    before = sandbox.limits()
    sandbox.set_limits(sandbox.JsLimits(cpu_ms=200, load_cpu_ms=1000, memory_mb=16))
    yield
    sandbox.set_limits(before)


def render(text: str, params: dict | None = None, media_type: str = "application/xml", now: int = 0) -> str:
    return EjsTemplate(text, "t.ejs", media_type).render_sync({"params": params or {}, "statement": {}}, now)


def module(tmp_path: Path, source: str, name: str = "p.js", **others: str) -> JsModule:
    for other, text in others.items():
        (tmp_path / other).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / other).write_text(text)
    (tmp_path / name).write_text(source)
    return JsModule((tmp_path / name).resolve(), (tmp_path.resolve(),))


async def hook(mod: JsModule, name: str, **options):
    value, _ = await mod.call(name, {"params": {}, "statement": {}, **options}, 0)
    return value


def test_an_infinite_loop_is_a_timeout_at_its_line():
    started = time.monotonic()
    with pytest.raises(JsTimeout) as caught:
        render("a\nb\n<% while (true) {} %>\n")
    assert (caught.value.js_file, caught.value.js_line) == ("t.ejs", 3)
    assert "t.ejs:3: ran past its 200 ms CPU limit" in str(caught.value)
    assert time.monotonic() - started < 30  # interrupted, not left running (CPU time: a loaded host stretches it)


def test_a_memory_bomb_is_typed_and_the_next_call_gets_a_fresh_context():
    template = EjsTemplate("<% var s = 'x'; while (true) { s = s + s; } %>", "bomb.ejs", "application/xml")
    with pytest.raises(JsMemoryExceeded, match=r"bomb\.ejs.*16 MB"):
        template.render_sync({"params": {}}, 0)
    fine = EjsTemplate("<%= params.a %>", "fine.ejs", "application/xml")
    assert fine.render_sync({"params": {"a": 1}}, 0) == "1"


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("require('fs')", "'require' is not defined"),  # as in ql.io: a template has no require
        ("process.exit(1)", "'process' is not defined"),
        ("globalThis.constructor.constructor('return process')()", "'process' is not defined"),
        ("setTimeout(function(){}, 1)", "'setTimeout' is not defined"),
        ("std.open('/etc/passwd')", "'std' is not defined"),
    ],
)
def test_what_the_host_has_is_not_there(code: str, message: str):
    with pytest.raises(JsError, match=message) as caught:
        render(f"line one\n<% {code} %>")
    assert (caught.value.js_file, caught.value.js_line) == ("t.ejs", 2)


def test_the_clock_is_the_time_the_call_began():
    text = "<%= Date.now() %>,<%= new Date().getTime() %>,<%= Object.getPrototypeOf(new Date(0)).constructor.now() %>"
    assert render(text, now=1_700_000_000_000) == "1700000000000,1700000000000,1700000000000"
    assert render("<%= new Date(86400000).toISOString() %>") == "1970-01-02T00:00:00.000Z"  # dates still work
    assert render("<%= typeof __date_clock + typeof performance %>") == "undefinedundefined"


def test_globalThis_tricks_find_only_the_sandbox():
    names = render(
        "<%- Object.getOwnPropertyNames(globalThis).filter(function (n) { return /^[a-z]/.test(n); }).sort().join(',') %>"
    )
    assert set(names.split(",")) <= {
        "decodeURI",
        "decodeURIComponent",
        "encodeURI",
        "encodeURIComponent",
        "escape",
        "eval",
        "globalThis",
        "isFinite",
        "isNaN",
        "parseFloat",
        "parseInt",
        "undefined",
        "unescape",
    }
    assert render("<%= (0, eval)('this') === globalThis %>") == "true"


def test_an_array_bomb_is_memory_too():
    # QuickJS reports this one as a bare null (no error could be allocated)
    with pytest.raises(JsMemoryExceeded, match=r"t\.ejs: went past the 16 MB memory limit"):
        render("<% var a = []; for (;;) { a.push([a.length, a.length + 1, {}]); } %>")


def test_a_throwing_template_names_its_line():
    with pytest.raises(JsError) as caught:
        render("<% function f(x) {\n  return x.y.z;\n} %>\n<%= f({}) %>")
    assert caught.value.js_line == 2 and "TypeError" in str(caught.value) and "t.ejs:2" in str(caught.value)


def test_a_template_that_does_not_compile_fails_on_check():
    with pytest.raises(JsError, match=r"^t\.ejs:3: SyntaxError"):
        EjsTemplate("ok\n<% var a = 1 %>\n<% if ( %>", "t.ejs", "application/xml").check()


async def test_a_patch_returning_the_wrong_type_names_the_hook_and_line(tmp_path):
    mod = module(tmp_path, "// a patch\nexports['patch status'] = function (o) { return 'ok'; };\n")
    with pytest.raises(JsError) as caught:
        await hook(mod, "patch status", status=200)
    assert (caught.value.js_file, caught.value.js_line) == ("p.js", 2)
    assert "'patch status' returned a string; ql.io expects a number" in str(caught.value)


async def test_a_runaway_patch_is_a_timeout_naming_its_hook(tmp_path):
    mod = module(tmp_path, "\n\nexports['patch uri'] = function (o) { for (;;) {} };\n")
    with pytest.raises(JsTimeout) as caught:
        await hook(mod, "patch uri", uri="http://h/p")
    assert (caught.value.js_file, caught.value.js_line) == ("p.js", 3)


async def test_require_reaches_relative_files_of_the_tree_and_errors_name_them(tmp_path):
    mod = module(
        tmp_path,
        "var util = require('./lib/util');\nexports['patch uri'] = function (o) { return util.fix(o.uri); };",
        **{"lib/util.js": "exports.fix = function (u) {\n  u.setParam('a', 'b');\n  u.nope();\n};"},
    )
    with pytest.raises(JsError) as caught:
        await hook(mod, "patch uri", uri="http://h/p?x=1")
    assert (caught.value.js_file, caught.value.js_line) == ("lib/util.js", 3)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("fs", "the sandbox has no modules"),
        ("child_process", "the sandbox has no modules"),
        ("./../../../../etc/passwd", "no such file inside the tables tree"),
        ("./missing", "no such file inside the tables tree"),
    ],
)
async def test_a_module_requires_only_relative_files_of_the_tree(tmp_path, name: str, message: str):
    mod = module(tmp_path, f"exports['patch uri'] = function (o) {{\n  return require('{name}');\n}};")
    with pytest.raises(JsError, match=message) as caught:
        await hook(mod, "patch uri", uri="http://h/p")
    assert (caught.value.js_file, caught.value.js_line) == ("p.js", 2)


async def test_mutable_uri_as_ql_io_patches_use_it(tmp_path):
    mod = module(
        tmp_path,
        """exports['patch uri'] = function (o) {
          var u = o.uri;
          u.removeEmptyParams();
          u.addParam('itemFilter(0).name', 'MinPrice');
          u.addParam('k', 'b c');
          u.setParam('one', u.getParam('k') + '!');
          u.removeParam('k', 'a');
          return [u, 'http://other/x'];
        };""",
    )
    uris = await hook(mod, "patch uri", uri="http://h:8/p?k=a&empty=&keep=1#f")
    assert uris == ["http://h:8/p?k=b%20c&keep=1&itemFilter(0).name=MinPrice&one=a%2Cb%20c!#f", "http://other/x"]
    assert mod.has("patch uri") and not mod.has("patch body")


async def test_a_patch_that_throws_names_its_line(tmp_path):
    mod = module(tmp_path, "exports['patch headers'] = function (o) {\n  throw new Error('no ' + o.params.q);\n};")
    with pytest.raises(JsError, match=r"p\.js:2: Error: no x"):
        await hook(mod, "patch headers", params={"q": "x"}, headers={})


def test_a_forked_worker_makes_its_own_js_thread_and_contexts():
    import multiprocessing

    template = EjsTemplate("<%= params.n * 2 %>", "t.ejs", "application/xml")
    assert template.render_sync({"params": {"n": 1}}, 0) == "2"  # the parent's context, on the parent's thread

    def child(conn):
        conn.send(template.render_sync({"params": {"n": 21}}, 0))

    parent_end, child_end = multiprocessing.Pipe()
    process = multiprocessing.get_context("fork").Process(target=child, args=(child_end,))
    process.start()
    assert parent_end.poll(60), "the forked child never answered (its JS thread was gone)"
    assert parent_end.recv() == "42"
    process.join(10)
