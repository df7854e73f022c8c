"""Offline by default: with ``"ebay": {"emulator": "auto"}`` in the config and no
eBay credentials set, ``qlgate run`` and ``qlgate serve`` start the built-in
emulator and point every eBay table at it (``"always"`` forces it, ``"off"``
never starts it)."""

from __future__ import annotations

import copy
from typing import Any

from ..config import Config
from .app import RunningSandbox


def wants_emulator(config: Config) -> bool:
    mode = str((config.data.get("ebay") or {}).get("emulator", "off")).lower()
    if mode == "always":
        return True
    if mode != "auto":
        return False
    ebay = (config.data.get("tables") or {}).get("ebay") or {}
    token = (ebay.get("trading") or {}).get("eBayAuthToken")
    app = (ebay.get("finding") or {}).get("appname")
    return not token and not app


def merge_config(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """``extra`` laid over ``base``, objects merged member by member."""
    out = copy.deepcopy(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge_config(out[key], value)
        else:
            out[key] = value
    return out


async def start_if_wanted(config: Config) -> tuple[Config, RunningSandbox | None]:
    """The config to run with, and the emulator started for it (or None)."""
    if not wants_emulator(config):
        return config, None
    sandbox = await RunningSandbox().start()
    return Config.from_dict(
        merge_config(config.data, sandbox.config()), env={}, path=config.path, secrets=config.secrets
    ), sandbox
