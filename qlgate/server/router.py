"""Which handler answers a request: the gateway's endpoints by method and path
pattern, and the routes of ``routes/`` behind one catch-all.

A pattern is a path whose segments may be ``{name}`` (one segment) or, last,
``{name:rest}`` (the rest of the path, slashes included). Exact paths are one
dictionary lookup; the few patterns with variable parts are tried in the order
they were added. The pattern that matched is the request's ``endpoint``: the
name the access policy (``auth.ENDPOINTS``) knows it by.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .request import Request
    from .response import Response

Handler = Callable[["Request"], Awaitable["Response"]]
ANY = "*"
CATCH_ALL = "/{tail}"


@dataclass(frozen=True)
class _Pattern:
    text: str
    segments: tuple[str, ...]  # literal segments, or "" where a variable one goes
    names: tuple[str, ...]  # the variables' names, in order
    rest: bool  # the last variable takes the rest of the path

    @classmethod
    def parse(cls, text: str) -> _Pattern:
        segments, names, rest = [], [], False
        parts = text.strip("/").split("/")
        for index, part in enumerate(parts):
            if part.startswith("{") and part.endswith("}"):
                name, _, kind = part[1:-1].partition(":")
                if kind and (kind != "rest" or index != len(parts) - 1):
                    raise ValueError(f"{text}: only the last segment may be {{name:rest}}")
                names.append(name)
                segments.append("")
                rest = kind == "rest"
            else:
                segments.append(part)
        return cls(text, tuple(segments), tuple(names), rest)

    def match(self, path: str) -> dict[str, str] | None:
        parts = path.strip("/").split("/") if path != "/" else [""]
        count = len(self.segments)
        if len(parts) < count or (len(parts) > count and not self.rest):
            return None
        values = []
        for index, literal in enumerate(self.segments):
            if literal:
                if parts[index] != literal:
                    return None
            elif self.rest and index == count - 1:
                values.append("/".join(parts[index:]))
            elif parts[index]:
                values.append(parts[index])
            else:
                return None
        return dict(zip(self.names, values))


@dataclass(frozen=True)
class Match:
    handler: Handler
    endpoint: str  # the pattern that matched
    params: dict[str, str]


@dataclass(frozen=True)
class Refused:
    """The path is served, but not with this method: the methods it takes."""

    allowed: frozenset[str]


class Router:
    def __init__(self) -> None:
        self._exact: dict[str, dict[str, Handler]] = {}  # path → method → handler
        self._patterns: list[tuple[_Pattern, dict[str, Handler]]] = []
        self._catch_all: Handler | None = None

    def add(self, method: str, pattern: str, handler: Handler) -> None:
        """Serve ``method`` (``*``: any) at ``pattern``. GET also answers HEAD."""
        if pattern == CATCH_ALL:
            self._catch_all = handler
            return
        if "{" not in pattern:
            self._exact.setdefault(pattern, {})[method] = handler
            return
        for known, methods in self._patterns:
            if known.text == pattern:
                methods[method] = handler
                return
        self._patterns.append((_Pattern.parse(pattern), {method: handler}))

    def endpoints(self) -> list[tuple[str, str]]:
        """(method, pattern) of everything served: what the access policy must cover."""
        found = [(m, p) for p, methods in self._exact.items() for m in methods]
        found += [(m, pattern.text) for pattern, methods in self._patterns for m in methods]
        if self._catch_all is not None:
            found.append((ANY, CATCH_ALL))
        return found

    def serves(self, path: str) -> bool:
        """Is ``path`` one of the gateway's own endpoints (not a route's)?"""
        return path in self._exact or any(p.match(path) is not None for p, _ in self._patterns)

    def resolve(self, method: str, path: str) -> Match | Refused | None:
        """The handler for ``method`` at ``path``; ``Refused`` when the path is an
        endpoint's but the method is not; the catch-all (or None) otherwise."""
        methods = self._exact.get(path)
        params: dict[str, str] = {}
        endpoint = path
        if methods is None:
            for pattern, candidate in self._patterns:
                found = pattern.match(path)
                if found is not None:
                    methods, params, endpoint = candidate, found, pattern.text
                    break
        if methods is not None:
            handler = _pick(methods, method)
            if handler is not None:
                return Match(handler, endpoint, params)
            return Refused(_allowed(methods))
        if self._catch_all is not None:
            return Match(self._catch_all, CATCH_ALL, {})
        return None

    def methods_at(self, path: str) -> frozenset[str]:
        """The methods the gateway's own endpoints take at ``path`` (for a 405's ``Allow``)."""
        allowed: set[str] = set()
        if path in self._exact:
            allowed |= _allowed(self._exact[path])
        for pattern, methods in self._patterns:
            if pattern.match(path) is not None:
                allowed |= _allowed(methods)
        return frozenset(allowed)


def _pick(methods: dict[str, Handler], method: str) -> Handler | None:
    handler = methods.get(method) or methods.get(ANY)
    if handler is None and method == "HEAD":
        handler = methods.get("GET")  # a HEAD is answered as its GET, without the body
    return handler


def _allowed(methods: dict[str, Handler]) -> frozenset[str]:
    names = set(methods)
    if ANY in names:
        return frozenset(("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"))
    if "GET" in names:
        names.add("HEAD")
    return frozenset(names)
