"""Monkey patch modules (spec §11): Python modules defining hook functions that
take one ``ctx`` argument, plain or ``async``, and the ``MutableURI`` they edit.
"""

from __future__ import annotations

import importlib.util
import inspect
import sys
import threading
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, urlsplit, urlunsplit

from ..errors import PatchError, QlError
from .files import CodeDirs

HOOKS = ("validate_param", "patch_uri", "patch_headers", "body_template", "patch_body",
         "compute_key", "parse_response", "patch_media_type", "patch_status", "patch_response", "auth")

_lock = threading.Lock()
_modules: dict[Path, Any] = {}


def load_module(file: str, dirs: CodeDirs, *, what: str = "patch") -> Any:
    """Load (once) the Python module ``file`` names, found through ``dirs`` (inside
    the deployment's trees only); ``.js`` names resolve to ``.py``."""
    name = file[:-3] + ".py" if file.endswith(".js") else file
    path = dirs.find(name, f"{what} module", suffixes=(".py",))
    with _lock:
        module = _modules.get(path)
        if module is None:
            mod_name = f"qlgate_{what}_{abs(hash(str(path))):x}_{path.stem}"
            spec = importlib.util.spec_from_file_location(mod_name, path)
            if spec is None or spec.loader is None:
                raise QlError(f"cannot load {what} module {path.name}", status=400)
            module = importlib.util.module_from_spec(spec)
            try:
                spec.loader.exec_module(module)
            except Exception as e:  # a broken user module is a typed error, not a traceback
                raise QlError(f"{what} module {path.name} failed to load: {type(e).__name__}: {e}",
                              status=400) from None
            sys.modules[mod_name] = module
            _modules[path] = module
    return module


class Patch:
    """The hooks one patch module defines."""

    def __init__(self, module: Any, file: str):
        self.module = module
        self.file = file
        self.hooks = {h: getattr(module, h) for h in HOOKS if callable(getattr(module, h, None))}

    def has(self, hook: str) -> bool:
        return hook in self.hooks

    async def call(self, hook: str, ctx: "HookContext", *, table: str) -> Any:
        ctx.hook = hook
        return await call_user_code(self.hooks[hook], (ctx,), lambda e: PatchError(
            f"{hook} of {table} ({self.file}) raised {type(e).__name__}: {e}",
            status=getattr(e, "status", 500) if isinstance(getattr(e, "status", None), int) else 500))


async def call_user_code(fn: Any, args: tuple, wrap: Any) -> Any:
    """Call a user's function, plain or async; its exceptions become ``wrap(e)``
    (a typed QlError) so a broken patch or UDF never escapes as a traceback."""
    try:
        result = fn(*args)
        if inspect.isawaitable(result):
            result = await result
        return result
    except QlError:
        raise
    except Exception as e:
        raise wrap(e) from None


class HookContext:
    """The ``ctx`` handed to hooks: attribute access to whatever the hook needs."""

    def __init__(self, **attrs: Any):
        self.__dict__.update(attrs)

    def log(self, level: str, message: str) -> None:
        import logging
        logging.getLogger("qlgate.patch").log(
            {"error": logging.ERROR, "warn": logging.WARNING}.get(level, logging.INFO), message)

    def __repr__(self) -> str:
        return f"HookContext({', '.join(sorted(self.__dict__))})"


class MutableURI:
    """A URI whose query parameters a patch can edit (spec §11.3)."""

    def __init__(self, text: str):
        self._text = text
        self._parsed = False   # parsed on first use: most requests never look inside

    def _parse(self) -> None:
        parts = urlsplit(self._text)
        object.__setattr__(self, "scheme", parts.scheme)
        object.__setattr__(self, "path", parts.path)
        self._netloc, self.fragment = parts.netloc, parts.fragment
        self._query = parse_qsl(parts.query, keep_blank_values=True)
        self._modified = False
        self._parsed = True

    def __getattr__(self, name: str) -> Any:
        # only called for attributes not set yet: the parsed parts
        if name.startswith("__") or self.__dict__.get("_parsed", True):
            raise AttributeError(name)
        self._parse()
        return getattr(self, name)

    # -- host / port
    @property
    def host(self) -> str:
        return self._netloc.rsplit("@", 1)[-1].split(":")[0]

    @host.setter
    def host(self, value: str) -> None:
        self._netloc = value + (f":{self.port}" if self.port else "")
        self._modified = True

    @property
    def port(self) -> int | None:
        hostport = self._netloc.rsplit("@", 1)[-1]
        return int(hostport.rsplit(":", 1)[1]) if ":" in hostport else None

    @port.setter
    def port(self, value: int | None) -> None:
        self._netloc = self.host + (f":{value}" if value else "")
        self._modified = True

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("scheme", "path"):
            if not self.__dict__.get("_parsed"):
                self._parse()
            object.__setattr__(self, "_modified", True)
        object.__setattr__(self, name, value)

    # -- query parameters
    def get_param(self, name: str) -> Any:
        values = [v for k, v in self._query if k == name]
        if not values:
            return None
        return values[0] if len(values) == 1 else values

    def add_param(self, name: str, value: Any) -> "MutableURI":
        from ..values import to_text
        self._query.append((name, to_text(value)))
        self._modified = True
        return self

    def set_param(self, name: str, value: Any) -> "MutableURI":
        self._query = [(k, v) for k, v in self._query if k != name]
        return self.add_param(name, value)

    def remove_param(self, name: str, value: Any = None) -> "MutableURI":
        from ..values import to_text
        self._query = [(k, v) for k, v in self._query
                       if not (k == name and (value is None or v == to_text(value)))]
        self._modified = True
        return self

    def remove_empty_params(self) -> "MutableURI":
        self._query = [(k, v) for k, v in self._query if v != ""]
        self._modified = True
        return self

    def params(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, _ in self._query:
            out.setdefault(k, self.get_param(k))
        return out

    def format(self) -> str:
        if not self._parsed or not self._modified:
            return self._text
        query = "&".join(f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in self._query)
        return urlunsplit((self.scheme, self._netloc, self.path, query, self.fragment))

    __str__ = format

    def __repr__(self) -> str:
        return f"MutableURI({self.format()!r})"

    # camelCase aliases make porting ql.io patches mechanical
    getParam = get_param
    addParam = add_param
    setParam = set_param
    removeParam = remove_param
    removeEmptyParams = remove_empty_params
