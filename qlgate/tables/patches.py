"""Monkey patch modules (spec §11): Python modules defining hook functions that
take one ``ctx`` argument, plain or ``async``, and the ``MutableURI`` they edit.
Which hooks there are, what each ``ctx`` holds and what each answer means is
declared in ``hookspecs``; this module loads the modules and calls their hooks.
"""

from __future__ import annotations

import difflib
import importlib.util
import inspect
import logging
import sys
import threading
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, quote, urlsplit, urlunsplit

from ..errors import AuthRejected, PatchError, QlError
from .files import CodeDirs

if TYPE_CHECKING:
    from ..request_info import RequestInfo
    from .hookspecs import Context, StatementInfo, TableInfo
    from .params import ParamView

_lock = threading.Lock()
_modules: dict[Path, ModuleType] = {}

log = logging.getLogger("qlgate.tables.patches")


def load_module(file: str, dirs: CodeDirs, *, what: str = "patch") -> ModuleType:
    """Load (once) the Python module ``file`` names, found through ``dirs`` (inside
    the deployment's trees only); ``.js`` names resolve to ``.py``."""
    if what == "udf" and file.startswith("javascript:"):  # written in the script itself (trust.INLINE_JS)
        from .js_patches import inline_udf_module

        return inline_udf_module(file[len("javascript:") :])
    name = file[:-3] + ".py" if file.endswith(".js") else file
    if what == "udf" and file.endswith(".js") and not _exists(name, dirs, what):
        # ql.io's JavaScript UDF module, run in the sandbox (a Python port beside it wins)
        from .js_patches import js_udf_module

        return js_udf_module(dirs.find(file, "udf module", suffixes=(".js",)), dirs.roots, file)
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
            except Exception as e:  # noqa: BLE001 — a broken user module is a typed error, not a traceback
                raise QlError(
                    f"{what} module {path.name} failed to load: {type(e).__name__}: {e}", status=400
                ) from None
            sys.modules[mod_name] = module
            _modules[path] = module
    return module


def _exists(name: str, dirs: CodeDirs, what: str) -> bool:
    try:
        dirs.find(name, f"{what} module", suffixes=(".py",))
    except QlError:
        return False
    return True


class Patch:
    """The hooks one patch (or auth) module defines, found by the names in
    ``hookspecs.HOOKS`` when its table loads."""

    def __init__(self, module: ModuleType, file: str):
        self.module = module
        self.file = file
        self.hooks: dict[str, Callable[..., Any]] = hooks_of(module, file)

    def has(self, hook: str) -> bool:
        return hook in self.hooks

    async def call(self, hook: str, ctx: Context, *, table: str) -> Any:
        ctx.hook = hook
        return await call_user_code(
            self.hooks[hook],
            (ctx,),
            lambda e: PatchError(
                f"{hook} of {table} ({self.file}) raised {type(e).__name__}: {e}",
                status=getattr(e, "status", 500) if isinstance(getattr(e, "status", None), int) else 500,
            ),
        )


# a function this close to a hook's name is taken for a misspelling of it (patch_url, patch_header);
# short names are left out, where a letter more is a word of its own (oauth is no auth)
_NEAR = 0.88
_SHORTEST_NEAR = 8


def hooks_of(module: ModuleType, file: str) -> dict[str, Callable[..., Any]]:
    """The hooks ``module`` defines. A function of its own named like a hook that is
    none — ql.io's camelCase (``patchUri``), a misspelling (``patch_url``) — gets a
    warning naming the hook meant: silently ignored, it would leave every request unpatched
    without a word. Helpers start with ``_``; what the module imports is not looked at."""
    # imported here, not with the package: ``python3 -m qlgate.tables.hookspecs`` must run it
    # as a script before anything has imported it as a module
    from .hookspecs import HOOKS

    hooks = {name: fn for name in HOOKS if callable(fn := getattr(module, name, None))}
    for name, value in vars(module).items():
        if (
            name in HOOKS
            or name.startswith("_")
            or not inspect.isfunction(value)
            or value.__module__ != module.__name__
        ):
            continue
        meant = _hook_meant(name, HOOKS)
        if meant is not None:
            # the language says a patch's other names are ignored (spec §11.1): said, not refused
            log.warning(
                "%s: %s() is not a hook; did you mean %s()? (the hooks are %s; start a helper's name with _)",
                Path(file).name,
                name,
                meant,
                ", ".join(HOOKS),
            )
    return hooks


def _hook_meant(name: str, hooks: Iterable[str]) -> str | None:
    """The hook ``name`` looks like a spelling of, if any."""
    squashed = name.replace("_", "").lower()
    if (same := next((hook for hook in hooks if hook.replace("_", "") == squashed), None)) is not None:
        return same
    long_ones = [hook for hook in hooks if len(hook) >= _SHORTEST_NEAR]
    close = difflib.get_close_matches(name.lower(), long_ones, n=1, cutoff=_NEAR)
    return close[0] if close else None


async def call_user_code(fn: Callable[..., Any], args: tuple[Any, ...], wrap: Callable[[Exception], QlError]) -> Any:
    """Call a user's function, plain or async; its exceptions become ``wrap(e)``
    (a typed QlError) so a broken patch or UDF never escapes as a traceback."""
    try:
        result = fn(*args)
        if inspect.isawaitable(result):
            result = await result
        return result
    except QlError:
        raise
    except Exception as e:  # noqa: BLE001 — whatever user code raises becomes the typed error
        raise wrap(e) from None


class HookContext:
    """The ``ctx`` a hook (and a UDF, spec §12) receives: the engine's keyword
    arguments as attributes. For a hook's author its type is ``hookspecs.Context``
    and that hook's own Protocol there; the attributes every hook gets are declared
    here as well, so that a ``HookContext`` is a ``Context`` to the type checker."""

    hook: str
    table: TableInfo
    statement: StatementInfo
    params: ParamView
    config: Mapping[str, Any]
    vars: Mapping[str, Any]
    request: RequestInfo | None

    def __init__(self, **attrs: Any) -> None:
        self.__dict__.update(attrs)

    def log(self, level: str, message: str) -> None:
        """Python logging, where the engine passes no ``log`` of its own (a UDF's ``ctx``)."""
        logging.getLogger("qlgate.patch").log(
            {"error": logging.ERROR, "warn": logging.WARNING}.get(level, logging.INFO), message
        )

    async def access_token(self, name: str) -> str:
        """Where the engine passes no ``access_token`` of its own (a UDF's ``ctx``)."""
        raise AuthRejected(f"no OAuth2 credentials here (auth entry '{name}'): only a table's hooks get tokens")

    def __repr__(self) -> str:
        return f"HookContext({', '.join(sorted(self.__dict__))})"


if TYPE_CHECKING:

    def _is_a_context(ctx: HookContext) -> Context:
        return ctx  # never runs: mypy checks that the ctx the engine builds is what hooks are told


class MutableURI:
    """A URI whose query parameters a patch can edit (spec §11.3)."""

    def __init__(self, text: str):
        self._text = text
        self._parsed = False  # parsed on first use: most requests never look inside

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

    def add_param(self, name: str, value: Any) -> MutableURI:
        from ..values import to_text

        self._query.append((name, to_text(value)))
        self._modified = True
        return self

    def set_param(self, name: str, value: Any) -> MutableURI:
        self._query = [(k, v) for k, v in self._query if k != name]
        return self.add_param(name, value)

    def remove_param(self, name: str, value: Any = None) -> MutableURI:
        from ..values import to_text

        self._query = [(k, v) for k, v in self._query if not (k == name and (value is None or v == to_text(value)))]
        self._modified = True
        return self

    def remove_empty_params(self) -> MutableURI:
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
