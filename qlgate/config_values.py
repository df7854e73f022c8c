"""Typed reads of a config document, each of a key declared in ``config_keys.KEYS``:
the one way the code reads a setting.

    view = ConfigView(config.data)
    view.integer("gateway.maxBodyBytes")      # the value, or the declared default
    view.boolean("gateway.adhoc.enabled")

A read takes its default from the key's declaration, so a default is written once;
it checks the value with the rule loading checks it by (``config_schema.check``:
type, minimum, maximum, choices), so a settings class parses no number of its own
and a value that got past no validation (a dict handed to a ``from_config`` by an
embedding application) is refused with the same message, naming its JSON path,
never taken for the default. A path nobody declared is a ``LookupError``: the
code's mistake, found by the first test that reads it.

Tables read the config too, as data (``{config.tables.weather.base}``); that is
the document itself (``Config.data``), not this.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from .config_keys import ANY, key_at
from .config_schema import check, kind_of, show_path
from .errors import ConfigError

__all__ = ["ConfigView"]

_ABSENT = object()


class ConfigView:
    """A config document read through its declared keys. ``secrets``: the values that
    may not be quoted in an error (None: no string is quoted)."""

    __slots__ = ("data", "secrets")

    def __init__(self, data: Mapping[str, Any] | None, secrets: Collection[str] | None = None) -> None:
        self.data: Mapping[str, Any] = data if data is not None else {}
        self.secrets = secrets

    def has(self, path: str) -> bool:
        """Is the key at ``path`` written in the document (null counts as written)?"""
        return self._found(path) is not _ABSENT

    def value(self, path: str) -> Any:
        """The value at ``path`` (or the key's default), checked against its declaration."""
        found = self._found(path)
        if found is _ABSENT:
            return key_at(path).default
        problems = check(key_at(path), found, path.split("."), self.secrets)
        if problems:
            raise ConfigError(f"config {problems[0]}", path=problems[0].path)
        return found

    def integer(self, path: str) -> int:
        return int(self._typed(path, (int, float)))

    def optional_integer(self, path: str) -> int | None:
        found = self.value(path)
        return None if found is None else int(found)

    def number(self, path: str) -> float:
        return float(self._typed(path, (int, float)))

    def boolean(self, path: str) -> bool:
        return bool(self._typed(path, (bool,)))

    def text(self, path: str) -> str | None:
        """A string, or None when neither the document nor the default gives one."""
        found = self.value(path)
        return found if isinstance(found, str) else None

    def strings(self, path: str) -> list[str] | None:
        """A list of strings (each item checked: a number in a list of hosts is refused
        naming its index), or None when the key is null or absent without a default."""
        found = self.value(path)
        if found is None:
            return None
        key = key_at(path)
        for index, item in enumerate(found):
            if not isinstance(item, str):
                where = show_path([*path.split("."), f"[{index}]"])
                wanted, got = key.items or "string", kind_of(item)
                raise ConfigError(f"config {where}: must be {wanted}, not {got}", path=where)
        return list(found)

    def entries(self, path: str) -> dict[str, Any]:
        """A map of names the deployer chose (``timeouts``, ``limits.types``): each entry
        checked against the key declared for ``path.*``."""
        found = self.value(path)
        if not isinstance(found, Mapping):
            return {}
        entry = key_at(f"{path}.{ANY}")
        for name, item in found.items():
            problems = check(entry, item, [*path.split("."), str(name)], self.secrets)
            if problems:
                raise ConfigError(f"config {problems[0]}", path=problems[0].path)
        return dict(found)

    def _typed(self, path: str, kinds: tuple[type, ...]) -> Any:
        found = self.value(path)
        if not isinstance(found, kinds) or (bool not in kinds and isinstance(found, bool)):
            # only a key declared with a default of another type (or none) gets here
            raise LookupError(f"config key {path!r} is declared without a default of its type")
        return found

    def _found(self, path: str) -> Any:
        """What the document holds at ``path``, or ``_ABSENT``; a section on the way that
        is not an object is refused as its own key's wrong type."""
        holder: Any = self.data
        parts = path.split(".")
        for depth, part in enumerate(parts):
            if holder is None:
                return _ABSENT
            if not isinstance(holder, Mapping):
                section = ".".join(parts[:depth])
                problems = check(key_at(section), holder, parts[:depth], self.secrets)
                if problems:
                    raise ConfigError(f"config {problems[0]}", path=problems[0].path)
                return _ABSENT  # a section that may be something else (``cache: false``)
            if part not in holder:
                return _ABSENT
            holder = holder[part]
        return holder
