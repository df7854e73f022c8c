"""CommonJS patch modules as ql.io loaded them (``exports['patch uri'] = function (options)
{…}``), run in the sandbox (``sandbox.py``).

A module and every file it requires share one context. What ``require`` may load is
decided when the module loads, here, on the host: the string literals of its
``require('./…')`` calls, resolved beside the requiring file, kept when they are
``.js`` files inside the deployment's trees, and so on through what those require.
Nothing else exists in the context, so ``require('fs')``, a name outside the trees or
one computed at run time is a ``JsError`` at the line that asked.

Calls cross as JSON: ``options`` goes in as data (the URI as ql.io's ``MutableURI``,
made inside the context), and the hook's answer comes out as data, checked against
what ql.io accepted from that hook.
"""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any

from .errors import JsError
from .sandbox import JsLimits, Sandbox, Unit, payload

_REQUIRE = re.compile(r"""\brequire\s*\(\s*(['"])([^'"\n]+)\1\s*\)""")

# what the entry function does with each hook's answer: ``v`` the value to hand back, or
# ``bad`` what was returned instead
_INVOKE = r"""
(function (hook, data, now, line) {
  __qlgate.setNow(now);
  __qlgate.state.line = line;
  var exports = __qlgate.main(%(main)s);
  if (hook === "") {
    return JSON.stringify(Object.keys(exports).filter(function (k) { return typeof exports[k] === "function"; }));
  }
  var a = JSON.parse(data), o = a.options, logs = [];
  function log(level) { logs.push([String(level), [].slice.call(arguments, 1).map(String).join(" ")]); }
  if (hook.indexOf("udf:") === 0) {
    // a UDF as ql.io called one: `this` holds row, rows, index and next(err, value) over the
    // script's variables; the value handed to next, else the one returned, is the answer
    var self = Object.create(a.vars || {}), given = false, got;
    self.row = a.row; self.rows = a.rows; self.index = a.index; self.log = log;
    self.next = function (err, value) { if (err) throw err; given = true; got = value; };
    var returned = exports[hook.slice(4)].apply(self, a.args || []);
    var value = given ? got : returned;
    return JSON.stringify({ v: value === undefined ? null : value, logs: logs });
  }
  o.log = log;
  if (typeof o.uri === "string") o.uri = new __qlgate.MutableURI(o.uri);
  var r = hook === "validate param" ? exports[hook](o, a.name, a.value) : exports[hook](o);
  function kind(x) { return x === null ? "null" : Array.isArray(x) ? "an array" : "a " + typeof x; }
  function uri(x) {
    if (typeof x === "string") return x;
    if (x && typeof x.format === "function") return String(x.format());
    throw { bad: kind(x) };
  }
  try {
    var v;
    if (r === undefined || r === null) v = null;
    else if (hook === "patch uri") v = Array.isArray(r) ? r.map(uri) : [uri(r)];
    else if (hook === "patch status") { if (typeof r !== "number") throw { bad: kind(r) }; v = r; }
    else if (hook === "patch mediaType") { if (typeof r !== "string") throw { bad: kind(r) }; v = r; }
    else if (hook === "patch headers" || hook === "patch body" || hook === "body template") {
      if (typeof r !== "object" || Array.isArray(r)) throw { bad: kind(r) };
      v = r;
    }
    else if (hook === "validate param") v = !!r;
    else v = r;
    return JSON.stringify({ v: v, logs: logs });
  } catch (e) {
    if (e && e.bad) return JSON.stringify({ bad: e.bad, logs: logs });
    throw e;
  }
})
"""

EXPECTS = {
    "patch uri": "a MutableURI, a URI string or an array of them",
    "patch status": "a number",
    "patch mediaType": "a string",
    "patch headers": "an object of headers",
    "patch body": "an object {type, content}",
    "body template": "an object {type, content}",
}


def display_name(path: Path, roots: tuple[Path, ...]) -> str:
    """``path`` relative to the tree holding it (what errors name)."""
    for root in roots:
        if root == path or root in path.parents:
            return path.relative_to(root).as_posix()
    return path.name


def _inside(path: Path, roots: tuple[Path, ...]) -> bool:
    return any(root in path.parents for root in roots)


def read_module(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise JsError(f"cannot be read: {e}", file=path.name) from None


class JsModule:
    """One patch module and what it requires, loaded in a context of its own."""

    def __init__(
        self, path: Path, roots: tuple[Path, ...], *, source: str | None = None, limits: JsLimits | None = None
    ):
        self.path = path
        self.display = display_name(path, roots)
        unit = Unit()
        self.sources: dict[Path, str] = {}
        if source is None:
            self._collect(path, roots)
        else:  # written inline: nothing beside it to require
            self.sources[path] = source
        for file, source in self.sources.items():
            unit.add(
                display_name(file, roots),
                f"__qlgate.define({json.dumps(str(file))}, function (module, exports, require) {{{source}\n}});",
            )
        self.sandbox = Sandbox(unit, _INVOKE % {"main": json.dumps(str(path))}, limits=limits)
        main = self.sources[path]
        self.lines = {
            name: main.count("\n", 0, m.start()) + 1
            for m in re.finditer(r"""exports\s*(?:\[\s*(['"])([^'"]+)\1\s*\]|\.(\w+))\s*=""", main)
            for name in [m.group(2) or m.group(3)]
        }
        self.exports: list[str] = json.loads(self.sandbox.run_sync("", "", 0, 0))

    def _collect(self, path: Path, roots: tuple[Path, ...]) -> None:
        if path in self.sources:
            return
        source = self.sources[path] = read_module(path)
        for match in _REQUIRE.finditer(source):
            name = match.group(2)
            if not name.startswith(("./", "../")):
                continue  # require('fs') and the like: left for the context to refuse, at its line
            target = (path.parent / name).resolve()
            if target.suffix != ".js":
                target = target.with_name(target.name + ".js")
            if _inside(target, roots) and target.is_file():
                self._collect(target, roots)

    def has(self, hook: str) -> bool:
        return hook in self.exports

    async def call_udf(self, name: str, args: list[Any], now_ms: int, **this: Any) -> tuple[Any, list]:
        """The UDF ``name`` called as ql.io called one (``this.row``, ``this.next``…)."""
        text = await self.sandbox.call(
            "udf:" + name, payload({"options": {}, "args": args, **this}), float(now_ms), self.lines.get(name, 0)
        )
        answer = json.loads(text)
        return answer.get("v"), answer.get("logs") or []

    async def call(self, hook: str, options: dict[str, Any], now_ms: int, **more: Any) -> tuple[Any, list]:
        """The hook's answer, checked, and what it logged as ``[level, message]`` pairs."""
        line = self.lines.get(hook, 0)
        text = await self.sandbox.call(hook, payload({"options": options, **more}), float(now_ms), line)
        answer = json.loads(text)
        if "bad" in answer:
            raise JsError(
                f"'{hook}' returned {answer['bad']}; ql.io expects {EXPECTS.get(hook, 'another type')} or nothing",
                file=self.display,
                line=line or None,
            )
        return answer.get("v"), answer.get("logs") or []


_lock = threading.Lock()
_loaded: dict[Path, JsModule] = {}


def load_js_module(path: Path, roots: tuple[Path, ...]) -> JsModule:
    """The module at ``path`` (resolved, inside ``roots``), loaded once per process."""
    with _lock:
        module = _loaded.get(path)
        if module is None:
            module = _loaded[path] = JsModule(path, roots)
        return module


INLINE_LIMITS = JsLimits(cpu_ms=50, load_cpu_ms=200, memory_mb=8)
"""What a UDF written in a caller's script may use: a fraction of a deployer file's."""

_inline: dict[str, JsModule] = {}
_INLINE_KEPT = 64


def inline_module(source: str) -> JsModule:
    """The module of a UDF written inline (``javascript:`` and its source), made once per
    source; the oldest of more than 64 is dropped with its context."""
    with _lock:
        module = _inline.pop(source, None)
        if module is None:
            module = JsModule(Path("/inline.js"), (), source=source, limits=INLINE_LIMITS)
        _inline[source] = module  # most recent last
        while len(_inline) > _INLINE_KEPT:
            _inline.pop(next(iter(_inline)))
        return module
