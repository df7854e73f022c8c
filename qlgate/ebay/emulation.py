"""Offline by default: with ``"ebay": {"environment": "auto"}`` in the config
(or nothing) and no eBay credentials set, ``qlgate run`` and ``qlgate serve``
start the eBay emulator and point every eBay table at it; ``emulator``
forces it, ``sandbox`` and ``production`` talk to eBay's own
(qlgate.ebay.environments). The older ``"emulator": "always" | "auto" | "off"``
still works.

The emulator is the ``qlgate-ebay-emulator`` distribution (``emulator/`` in the
repository), found through its entry point (``qlgate/emulators.py``); a config that
wants it where it is not installed fails with a ``MissingExtra`` saying so."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from ..config import Config
from ..emulators import find_emulator
from .environments import choose, resolved_environment, with_endpoints

if TYPE_CHECKING:
    from ..emulators import Emulator, EmulatorServer, RunningEmulator


def ebay_emulator() -> Emulator:
    """The installed eBay emulator, or a MissingExtra that says what to install."""
    return find_emulator(
        "ebay", wanted_by="the config (ebay.environment 'emulator', or 'auto' with no eBay credentials set)"
    )


def emulator_config(base: str) -> dict[str, Any]:
    """The config that points every eBay table at an eBay emulator at ``base``."""
    return ebay_emulator().config(base)


def running_emulator() -> EmulatorServer:
    """The eBay emulator for a process of its own (``qlgate serve --workers N`` shares one),
    not started: ``await running_emulator().start(port=…)`` listens at once and builds the
    marketplace on the first connection, so a gateway worker that answers before the
    marketplace is built (qlgate's own server starts in well under its build time) finds
    the port open and its first call waits, rather than a refused connection and a 502."""
    return _ListeningFirst(ebay_emulator())


class _ListeningFirst:
    def __init__(self, emulator: Emulator):
        self._emulator = emulator

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> RunningEmulator:
        return await self._emulator.lazy(host=host, port=port).start()


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
    environment = choose(config).environment  # eBay's own with half its keys set stops here
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


async def start_if_wanted(config: Config, *, lazily: bool = False) -> tuple[Config, RunningEmulator | None]:
    """The config to run with, and the emulator started for it (or None). ``lazily``:
    only its address is taken now; the emulator is built when something first
    connects to it (``lazy.py``: ``qlgate run``, whose script may call no eBay table)."""
    if not wants_emulator(config):
        return with_ebay_endpoints(config), None
    emulator = ebay_emulator()
    sandbox = await (emulator.lazy().start() if lazily else emulator.running().start())
    return Config.from_dict(
        merge_config(config.data, sandbox.config()), env={}, path=config.path, secrets=config.secrets
    ), sandbox
