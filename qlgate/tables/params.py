"""The parameter view of a request (spec §10.1): a read-through mapping over
layers, highest precedence first. A layer value that is *missing* does not hide
lower layers; ``null`` does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from ..values import MISSING


class ParamView:
    """Layers: private writes, per-request binding, statement params, script
    variables, request query, request headers, connection facts, defaults,
    config. Defaults are resolved lazily because they may refer to the others."""

    __slots__ = (
        "_defaults",
        "_resolve_default",
        "_resolved",
        "binding",
        "config",
        "connection",
        "headers",
        "private",
        "query",
        "statement",
        "variables",
    )

    def __init__(
        self,
        *,
        statement: Mapping[str, Any],
        variables: Mapping[str, Any],
        query: Mapping[str, Any] | None = None,
        headers: Mapping[str, Any] | None = None,
        connection: Mapping[str, Any] | None = None,
        defaults: Mapping[str, Any] | None = None,
        resolve_default: Callable[[Any, ParamView], Any] | None = None,
        config: Any = None,
        private: dict | None = None,
        binding: Mapping[str, Any] | None = None,
    ):
        self.private: dict[str, Any] = {} if private is None else private
        self.binding = binding or {}
        self.statement = statement
        self.variables = variables
        self.query = query or {}
        self.headers = headers or {}
        self.connection = connection or {}
        self._defaults = defaults or {}
        self._resolve_default = resolve_default
        self.config = config if config is not None else {}
        self._resolved: dict[str, Any] = {}

    def fork(self, binding: Mapping[str, Any]) -> ParamView:
        """A view for one request of a fan-out: own private layer, own binding; the
        other layers as they are (copied over, not through ``__init__``: once per request)."""
        view = ParamView.__new__(ParamView)
        view.private = dict(self.private)
        view.binding = {**self.binding, **binding}
        view.statement, view.variables = self.statement, self.variables
        view.query, view.headers, view.connection = self.query, self.headers, self.connection
        view._defaults, view._resolve_default = self._defaults, self._resolve_default
        view.config, view._resolved = self.config, self._resolved
        return view

    def _layers(self) -> tuple[Mapping[str, Any], ...]:
        return (self.private, self.binding, self.statement, self.variables, self.query, self.headers, self.connection)

    def default(self, name: str) -> Any:
        if name not in self._defaults:
            return MISSING
        if name not in self._resolved:
            raw = self._defaults[name]
            self._resolved[name] = self._resolve_default(raw, self) if self._resolve_default else raw
        return self._resolved[name]

    def get(self, name: str, default: Any = None) -> Any:
        value = self.lookup(name)
        return default if value is MISSING else value

    def lookup(self, name: str) -> Any:
        """The value of ``name`` or MISSING. ``config`` (and ``config.…``) is always the
        config: a caller's parameter, header or body member of that name must not stand
        in for it or for any part of it."""
        if name.startswith("config") and _is_config(name):
            return self.config if name == "config" else MISSING
        for layer in self._layers():
            value = layer.get(name, MISSING)
            if value is not MISSING:
                return value
        return self.default(name)

    def lookup_below_defaults(self, name: str) -> Any:
        """Layers 1–6 and config: what a default's own tokens resolve against."""
        if name.startswith("config") and _is_config(name):
            return self.config if name == "config" else MISSING
        for layer in self._layers():
            value = layer.get(name, MISSING)
            if value is not MISSING:
                return value
        return MISSING

    def __getitem__(self, name: str) -> Any:
        value = self.lookup(name)
        if value is MISSING:
            raise KeyError(name)
        return value

    def __setitem__(self, name: str, value: Any) -> None:
        self.private[name] = value

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.lookup(name) is not MISSING

    def keys(self) -> Iterator[str]:
        seen: set[str] = set()
        for layer in (*self._layers(), self._defaults):
            for key in layer:
                if key not in seen:
                    seen.add(key)
                    yield key

    def statement_names(self) -> list[str]:
        return list(self.statement)

    def default_names(self) -> list[str]:
        return list(self._defaults)

    def flat(self) -> dict[str, Any]:
        """A plain snapshot of every layer (config included) for templates."""
        out: dict[str, Any] = {"config": self.config}
        for key in self.keys():
            value = self.lookup(key)
            if value is not MISSING:
                out[key] = value
        return out


def _is_config(name: str) -> bool:
    return name == "config" or name.startswith(("config.", "config["))


def nest_dotted(params: dict[str, Any]) -> dict[str, Any]:
    """Add nested members for flat dotted names (``Offer.MaxBid`` → ``Offer: {MaxBid}``)
    so templates can walk them; flat keys stay, existing values are never replaced, and
    no object it was given is changed: each one on a path is copied before a member is
    added (the config among them is shared by every request). ``config.…`` names are
    not nested: the config is the deployer's."""
    out = dict(params)
    own: set[int] = {id(out)}  # objects made here, free to change
    for key, value in params.items():
        if "." not in key or _is_config(key):
            continue
        parts = key.split(".")
        node: dict[str, Any] | None = out
        for part in parts[:-1]:
            assert node is not None  # only the break below sets None, and it leaves the loop
            child = node.get(part, MISSING)
            if child is MISSING:
                child = {}
            elif not isinstance(child, dict):
                node = None
                break
            elif id(child) not in own:
                child = dict(child)
            if id(child) not in own:
                own.add(id(child))
                node[part] = child
            node = child
        if node is not None and parts[-1] not in node:
            node[parts[-1]] = value
    return out


def walk(value: Any, parts: Any) -> Any:
    """Member steps through nested objects; arrays on the way give their first element."""
    for part in parts:
        if isinstance(value, list):
            value = value[0] if value else MISSING
        if not isinstance(value, dict) or part not in value:
            return MISSING
        value = value[part]
    return value


def lookup_dotted(view: Any, name: str) -> Any:
    """URI-token lookup (§6.1): the flat name first, then a nested walk from the
    longest flat prefix that has a value. ``view`` is anything with ``lookup``."""
    value = view.lookup(name)
    if value is not MISSING or "." not in name:
        return value
    parts = name.split(".")
    for split in range(len(parts) - 1, 0, -1):
        head = view.lookup(".".join(parts[:split]))
        if head is not MISSING:
            found = walk(head, parts[split:])
            if found is not MISSING:
                return found
    return MISSING
