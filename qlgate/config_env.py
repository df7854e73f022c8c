"""Which environment variable a config key is read from, so that a message about a
missing value names what to set (``EBAY_CERT_ID``) rather than a key path the user
never wrote (``auth.ebay.app.clientSecret``).

A loaded ``Config`` holds the values after ``${NAME}`` substitution; the names are
in the document as written, which is read again from ``Config.path`` (only for a
message, off every hot path). A config built from a dict has no document: no names."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .config import _ENV, Config, read_document
from .errors import QlError


def variables_at(config: Config, key: Sequence[str]) -> list[str]:
    """The environment variables the value at ``key`` (its path, one member name a
    step: ``("auth", "ebay.app", "clientId")``) is written with, in order."""
    if config.path is None:
        return []
    value: Any
    try:
        value = read_document(config.path)
    except QlError:
        return []
    for step in key:
        if not isinstance(value, dict):
            return []
        value = value.get(step)
    return [match.group(1) for match in _ENV.finditer(value)] if isinstance(value, str) else []


def named(config: Config, key: Sequence[str]) -> str:
    """``key`` as a message names it: its environment variable(s), else its path."""
    names = variables_at(config, key)
    return " or ".join(names) if names else ".".join(key)
