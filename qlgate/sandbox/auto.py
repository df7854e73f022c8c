"""Offline by default: with ``"ebay": {"environment": "auto"}`` in the config
(or nothing) and no eBay credentials set, ``qlgate run`` and ``qlgate serve``
start the built-in emulator and point every eBay table at it; ``emulator``
forces it, ``sandbox`` and ``production`` talk to eBay's own
(qlgate.ebay.environments). The older ``"emulator": "always" | "auto" | "off"``
still works."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from ..config import Config
from ..ebay.environments import resolved_environment, with_endpoints

if TYPE_CHECKING:
    from .app import RunningSandbox
    from .lazy import LazyEmulator


def wants_emulator(config: Config) -> bool:
    """Does the config ask for the built-in emulator (``ebay.environment``
    ``emulator``, or ``auto`` without eBay credentials)? A config without an
    ``ebay`` section never does."""
    if "ebay" not in config.data:
        return False
    return resolved_environment(config.data) == "emulator"


def with_ebay_endpoints(config: Config) -> Config:
    """For ``production`` and ``sandbox``: the config with that environment's eBay
    endpoints filled in where it leaves them empty (qlgate.ebay.environments)."""
    if "ebay" not in config.data:
        return config
    environment = resolved_environment(config.data)
    if environment == "emulator":
        return config
    return Config.from_dict(with_endpoints(config.data, environment), env={}, path=config.path, secrets=config.secrets)


def merge_config(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """``extra`` laid over ``base``, objects merged member by member."""
    out = copy.deepcopy(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge_config(out[key], value)
        else:
            out[key] = value
    return out


async def start_if_wanted(
    config: Config, *, lazily: bool = False
) -> tuple[Config, RunningSandbox | LazyEmulator | None]:
    """The config to run with, and the emulator started for it (or None). ``lazily``:
    only its address is taken now; the emulator is built when something first
    connects to it (``lazy.py``: ``qlgate run``, whose script may call no eBay table)."""
    if not wants_emulator(config):
        return with_ebay_endpoints(config), None
    sandbox: RunningSandbox | LazyEmulator
    if lazily:
        from .lazy import LazyEmulator

        sandbox = await LazyEmulator().start()
    else:
        from .app import RunningSandbox

        sandbox = await RunningSandbox().start()
    return Config.from_dict(
        merge_config(config.data, sandbox.config()), env={}, path=config.path, secrets=config.secrets
    ), sandbox
