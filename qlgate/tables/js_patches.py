"""ql.io's JavaScript patch modules as a table's patch (issue 30): the same face as
``patches.Patch`` (``has``, ``call``), so the request and the answer call them as they
call a Python patch, with each hook's ``ctx`` turned into the ``options`` object
ql.io 0.8.8 handed that hook.

ql.io's hook names are qlgate's with spaces (``patch uri`` is ``patch_uri``;
``patch mediaType`` is ``patch_media_type``). ``parse response`` and ``compute key``
are not called: ql.io handed the first raw buffers and the second its own cache's
internals; qlgate decodes answers and keys its cache itself.

Which runs when both exist: ``using patch 'x.js'`` beside an ``x.py`` runs ``x.py``,
the Python port its deployer wrote for qlgate (as before); without it, ``x.js``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any

from ..js.modules import JsModule, load_js_module
from ..js.sandbox import call_time_ms
from .files import CodeDirs

QLIO_NAMES = {
    "validate_param": "validate param",
    "patch_uri": "patch uri",
    "patch_headers": "patch headers",
    "body_template": "body template",
    "patch_body": "patch body",
    "patch_media_type": "patch mediaType",
    "patch_status": "patch status",
    "patch_response": "patch response",
}


def py_twin_exists(file: str, dirs: CodeDirs) -> bool:
    try:
        dirs.find(file[:-3] + ".py", "patch module", suffixes=(".py",))
    except Exception:  # noqa: BLE001 — any reason it cannot be used means the .js runs
        return False
    return True


def statement_of(ctx: Any) -> dict[str, Any]:
    """``options.statement``: what ql.io's patches read of the running statement."""
    info = getattr(ctx, "statement", None)
    names = ("type", "line", "limit", "offset", "timeout", "columns", "text")
    return {name: getattr(info, name, None) for name in names} if info is not None else {}


def params_of(ctx: Any) -> dict[str, Any]:
    """``options.params``: the statement's parameters, flat (``params['paginationInput.pageNumber']``),
    with ``config`` among them, as ql.io merged them."""
    view = getattr(ctx, "params", None)
    flat = dict(view.flat()) if view is not None and hasattr(view, "flat") else {}
    config = getattr(ctx, "config", None)
    flat["config"] = dict(config) if isinstance(config, Mapping) else {}
    return flat


class JsPatch:
    """A ``.js`` patch module, called like a Python ``Patch``."""

    def __init__(self, module: JsModule, file: str):
        self.module = module
        self.file = file
        self.hooks = {ours: theirs for ours, theirs in QLIO_NAMES.items() if module.has(theirs)}

    @classmethod
    def load(cls, file: str, dirs: CodeDirs) -> JsPatch:
        path = dirs.find(file, "patch module", suffixes=(".js",))
        return cls(load_js_module(path, dirs.roots), file)

    def has(self, hook: str) -> bool:
        return hook in self.hooks

    async def call(self, hook: str, ctx: Any, *, table: str) -> Any:
        options: dict[str, Any] = {"statement": statement_of(ctx), "params": params_of(ctx)}
        for name in ("headers", "status"):
            if hasattr(ctx, name):
                options[name] = getattr(ctx, name)
        if getattr(ctx, "uri", None) is not None:
            options["uri"] = str(ctx.uri)
        if hasattr(ctx, "body"):
            body = ctx.body
            options["body"] = (
                {"type": getattr(body, "type", None), "content": getattr(body, "content", None)}
                if hook == "patch_body"
                else body
            )
        more = {"name": getattr(ctx, "name", None), "value": getattr(ctx, "value", None)}
        value, logs = await self.module.call(self.hooks[hook], options, call_time_ms(), **more)
        log = getattr(ctx, "log", None)
        for level, message in logs:
            if callable(log):
                log(level, f"{self.module.display}: {message}")
        if hook == "patch_body" and isinstance(value, dict) and "opaque" not in value:
            value = {"type": value.get("type"), "content": value.get("content")}
        return value


def inline_udf_module(source: str) -> ModuleType:
    """A UDF module written in a script (``require("javascript: exports.f = …")``), in a
    context of its own under the tighter limits of ``INLINE_LIMITS``; the same source
    shares one context (the last 64 kept), so a caller's repeated script compiles once."""
    from ..js.modules import inline_module

    return _shim(inline_module(source), "<inline javascript>")


def js_udf_module(path: Any, roots: tuple, name: str) -> ModuleType:
    """``u = require("x.js")`` in a deployer's script or route: ql.io's UDF module, as a
    module whose functions are qlgate UDFs (``fn(ctx, *args)``) calling into the sandbox.
    Each gets ``this.row``, ``this.rows``, ``this.index``, ``this.next(err, value)`` and the
    script's variables, as ql.io gave them; the value it hands to ``next`` (or returns)
    replaces the row, and null drops it, which is qlgate's rule for UDFs too."""
    return _shim(load_js_module(path, roots), name)


def _shim(module: JsModule, name: str) -> ModuleType:
    shim = ModuleType(name)

    def udf(function: str) -> Any:
        async def call(ctx: Any, *args: Any) -> Any:
            variables = getattr(ctx, "vars", None)
            this = {
                "row": getattr(ctx, "row", None),
                "rows": getattr(ctx, "rows", None),
                "index": getattr(ctx, "index", None),
                "vars": dict(variables) if isinstance(variables, Mapping) else {},
            }
            value, logs = await module.call_udf(function, list(args), call_time_ms(), **this)
            log = getattr(ctx, "log", None)
            for level, message in logs:
                if callable(log):
                    log(level, f"{module.display}: {message}")
            return value

        call.__name__ = function
        return call

    for function in module.exports:
        setattr(shim, function, udf(function))
    return shim
