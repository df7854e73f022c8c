"""The upstreams a caller's script may reach: the host allow-list that guards
against server-side request forgery through the gateway (``trust.py`` holds the
rest of what a caller's script may do), and the ``host:port`` origins it and the
limits compare, read from table templates and URLs alike."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from fnmatch import fnmatch
from typing import Any
from urllib.parse import urlsplit

from .errors import QlError


class UpstreamNotAllowed(QlError):
    status = 403


_AUTHORITY_END = re.compile(r"[/?#]")


@dataclass(frozen=True)
class HostAllowList:
    """The upstreams a caller's script may reach (``host``, ``host:port``, ``*.ebay.com``):
    the guard against server-side request forgery through the gateway."""

    patterns: tuple[str, ...]
    within: HostAllowList | None = None  # a list every host must also be in (see Trust.narrowed)
    tables_hosts: bool = False  # the tables' hosts, gateway.adhoc.allowedHosts being unset (see _refusal)
    # verdicts by scheme://netloc: every upstream call of a caller's script is checked,
    # and a script's calls go to a handful of origins
    _verdicts: dict[str, bool] = field(default_factory=dict, compare=False, repr=False)

    def allows(self, url: str) -> bool:
        scheme, sep, rest = url.partition("://")
        origin = scheme.lower() + sep + _AUTHORITY_END.split(rest, maxsplit=1)[0]
        verdict = self._verdicts.get(origin)
        if verdict is None:
            verdict = self._allows_origin(origin)
            if len(self._verdicts) >= 4096:
                self._verdicts.clear()
            self._verdicts[origin] = verdict
        return verdict

    def _allows_origin(self, origin: str) -> bool:
        parts = urlsplit(origin)
        host = (parts.hostname or "").lower()
        try:
            port = parts.port or (443 if parts.scheme == "https" else 80)
        except ValueError:  # a port that is not a number
            return False
        return any(fnmatch(f"{host}:{port}", p) or fnmatch(host, p) for p in self.patterns) and (
            self.within is None or self.within._allows_origin(origin)
        )

    def check(self, url: str) -> None:
        if not self.allows(url):
            raise UpstreamNotAllowed(self._refusal(url))

    def _refusal(self, url: str) -> str:
        """Why ``url`` is refused, by the list that refuses it: with gateway.adhoc.allowedHosts
        unset, "not in gateway.adhoc.allowedHosts" sent people looking for a key nobody set."""
        host = urlsplit(url).netloc
        own = self.within is None or replace(self, within=None, _verdicts={}).allows(url)
        refuser = self.within if own and self.within is not None else self
        if not refuser.tables_hosts:
            return f"ad-hoc scripts may not call {host}: it is not in gateway.adhoc.allowedHosts"
        shown = ", ".join(refuser.patterns[:5]) + (", …" if len(refuser.patterns) > 5 else "")
        return (
            f"ad-hoc scripts may not call {host}: gateway.adhoc.allowedHosts is not set, so they may reach "
            f"only the hosts the loaded tables call ({shown or 'none'}); list {host} there to allow it"
        )

    @classmethod
    def from_tables(cls, tables: Iterable[Any]) -> HostAllowList:
        """The hosts the loaded tables call (templates whose host is fixed after load)."""
        patterns = {
            origin
            for table in tables
            for mapping in table.mappings.values()
            if (origin := fixed_origin(mapping.uri.raw)) is not None
        }
        return cls(tuple(sorted(patterns)), tables_hosts=True)


def fixed_origin(uri: str) -> str | None:
    """``host:port`` of a URI template whose scheme and host are written out (not
    built from tokens); None otherwise."""
    try:
        parts = urlsplit(uri)
        if parts.scheme not in ("http", "https") or not parts.hostname or "{" in parts.netloc:
            return None
        return f"{parts.hostname.lower()}:{parts.port or (443 if parts.scheme == 'https' else 80)}"
    except ValueError:  # a port that is not a number
        return None


def url_origin(url: str) -> str | None:
    """``host:port`` of a URL, as ``fixed_origin`` writes a table's (None: no host)."""
    return fixed_origin(url.replace("{", "%7B"))
