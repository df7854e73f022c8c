"""qlgate: a query gateway for marketplace APIs, successor of eBay's ql.io.

The public API is what this module exports; the rest of the package may change
between releases. From a script or a notebook cell without an event loop::

    import qlgate

    items = qlgate.run('return select * from ebay.finding.findItemsByKeywords where keywords = "{q}"',
                       q="camera")

From async code, open an engine once and run many scripts on it::

    async with qlgate.Engine(tables="tables", config="config/dev.json") as engine:
        result = await engine.execute(script, context={"q": "camera"})
        result.value, result.headers, result.warnings, result.diagnostics.render()

Every error a script, a table or the deployment can cause is a ``QlError``,
with the HTTP ``status`` the gateway would answer and a message; a failed run's
``diagnostics`` and ``warnings`` ride on the error.

The errors, ``MISSING`` and ``__version__`` are imported with the package; the
engine's names (``Engine``, ``Result``, ``RequestInfo``, ``Diagnostics``,
``CallRecord``) on first use (PEP 562), so ``qlgate run -e`` — which starts by
importing this package — does not pay for the engine, aiohttp and lark before it
knows it needs them. Type checkers and IDEs see them through the
``TYPE_CHECKING`` imports below; ``dir(qlgate)`` lists them.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from ._version import __version__
from .errors import (
    AmbiguousTable,
    AuthRejected,
    CompileError,
    ConfigError,
    FanOutLimit,
    InvalidParameter,
    InvalidRequestBody,
    MissingExtra,
    MissingParameter,
    PatchError,
    QlError,
    QlSyntaxError,
    RequestBytesExceeded,
    ScriptBudgetExceeded,
    ScriptTooLong,
    StatementError,
    TableBackingOff,
    TableNotFound,
    TransformError,
    UdfError,
    UdfNotFound,
    UnknownParameter,
    UnsupportedVerb,
    UpstreamError,
    UpstreamThrottled,
    UpstreamTimeout,
    UpstreamUnavailable,
)
from .values import MISSING

if TYPE_CHECKING:
    from .diagnostics import CallRecord, Diagnostics
    from .engine.engine import Engine, Result
    from .request_info import RequestInfo

# the engine's names, imported on first use: name → module
_LAZY = {
    "CallRecord": "qlgate.diagnostics",
    "Diagnostics": "qlgate.diagnostics",
    "Engine": "qlgate.engine.engine",
    "RequestInfo": "qlgate.request_info",
    "Result": "qlgate.engine.engine",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'qlgate' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # looked up once
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "MISSING",
    "AmbiguousTable",
    "AuthRejected",
    "CallRecord",
    "CompileError",
    "ConfigError",
    "Diagnostics",
    "Engine",
    "FanOutLimit",
    "InvalidParameter",
    "InvalidRequestBody",
    "MissingExtra",
    "MissingParameter",
    "PatchError",
    "QlError",
    "QlSyntaxError",
    "RequestBytesExceeded",
    "RequestInfo",
    "Result",
    "ScriptBudgetExceeded",
    "ScriptTooLong",
    "StatementError",
    "TableBackingOff",
    "TableNotFound",
    "TransformError",
    "UdfError",
    "UdfNotFound",
    "UnknownParameter",
    "UnsupportedVerb",
    "UpstreamError",
    "UpstreamThrottled",
    "UpstreamTimeout",
    "UpstreamUnavailable",
    "__version__",
    "run",
]

_log = logging.getLogger("qlgate")


def run(script: str, /, **vars: Any) -> Any:
    """Run ``script`` as ``qlgate run -e`` does and return its value (None when it
    returns none); ``vars`` are its variables.

    The deployment is found from the working directory like the command finds it:
    ``./tables``, ``./routes``, ``config/dev.json`` (the built-in eBay emulator
    starts when that config asks for it). The script runs with the deployer's
    trust and may load code beside it; warnings go to the ``qlgate`` logger. Each
    call opens the deployment and closes it again: for many scripts, keep an
    ``Engine`` open instead.

    Blocks until the script ends, so it needs a thread with no event loop running:
    from async code (a notebook cell is one) it raises ``RuntimeError`` — there,
    ``await asyncio.to_thread(qlgate.run, script, ...)`` or use ``Engine``.
    Failures raise ``QlError``.
    """
    import asyncio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass  # none running in this thread: ours can
    else:
        raise RuntimeError(
            "qlgate.run() blocks, so it cannot be called where an event loop is running (async "
            "code, a notebook cell): await asyncio.to_thread(qlgate.run, script, ...) there, "
            "or await engine.execute(script) on a qlgate.Engine"
        )
    # asyncio's own loop: uvloop, as the command uses, would be installed for the whole process
    return asyncio.run(_run(script, vars))


async def _run(script: str, context: dict[str, Any]) -> Any:
    from pathlib import Path

    from .workspace import Workspace

    async with await Workspace.open(lazy=True) as workspace:
        for problem in workspace.problems:
            _log.warning("%s", problem)
        result = await workspace.engine.execute(script, context=context, base_dir=Path.cwd(), origin="<qlgate.run>")
    for warning in dict.fromkeys(result.warnings):
        _log.warning("%s", warning)
    return _plain(result.value)


def _plain(value: Any) -> Any:
    """The value as ``qlgate run`` prints it: a missing value is None (JSON's null)
    wherever it stands, never the engine's sentinel."""
    if value is MISSING:
        return None
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value
