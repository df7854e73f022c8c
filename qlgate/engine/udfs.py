"""User-defined functions (spec §12): modules loaded with ``require`` and called
as ``fname(ctx, *args)``, plain or ``async``.
"""

from __future__ import annotations

import re
from types import MappingProxyType
from typing import Any

from ..errors import UdfError, UdfNotFound
from ..tables.files import CodeDirs
from ..tables.patches import HookContext, call_user_code, load_module


class UdfModule:
    """What ``u = require("x.py")`` binds ``u`` to."""

    def __init__(self, name: str, module: Any):
        self.name = name
        self.module = module

    def function(self, name: str) -> Any:
        fn = getattr(self.module, name, None)
        if not callable(fn):
            snake = re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
            fn = getattr(self.module, snake, None)
        if not callable(fn):
            raise UdfNotFound(f"UDF '{name}' is not defined in {self.name}")
        return fn

    def __repr__(self) -> str:
        return f"<udf module {self.name}>"


def load_udf_module(name: str, dirs: CodeDirs) -> UdfModule:
    """``require("x.py")`` (or ``"x.js"``, or ``"x"``): a module file found through
    ``dirs``, never an installed module imported by name."""
    file = name if name.endswith((".py", ".js")) or name.startswith("javascript:") else name + ".py"
    return UdfModule(name, load_module(file, dirs, what="udf"))


async def call_udf(module: UdfModule, function: str, args: list[Any], **ctx_attrs: Any) -> Any:
    fn = module.function(function)
    ctx = HookContext(**ctx_attrs)
    if "vars" in ctx_attrs and isinstance(ctx_attrs["vars"], dict):
        ctx.vars = MappingProxyType(ctx_attrs["vars"])
    return await call_user_code(
        fn, (ctx, *args), lambda e: UdfError(f"UDF {module.name}.{function} raised {type(e).__name__}: {e}")
    )
