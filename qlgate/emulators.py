"""Emulated marketplaces are distributions of their own, found by entry point:
qlgate never imports one by module path. A distribution offers an emulator as an
object under the entry point group ``qlgate.emulators`` (eBay's: the
``qlgate-ebay-emulator`` distribution in this repository's ``emulator/``, entry
point ``ebay``), with what ``Emulator`` lists. Not installed, a feature that
needs one raises a ``MissingExtra`` that says what to install.
"""

from __future__ import annotations

import argparse
from typing import Any, Protocol, cast

from . import entry_points as fast
from .errors import MissingExtra

__all__ = ["DISTRIBUTIONS", "GROUP", "Emulator", "EmulatorServer", "LazyServer", "RunningEmulator", "find_emulator"]

GROUP = "qlgate.emulators"
# entry point name → the distribution that provides it, for the message when it is missing
DISTRIBUTIONS = {"ebay": "qlgate-ebay-emulator"}
_SOURCE = {"ebay": "emulator"}  # where it lives in a clone of qlgate's repository
_SHOWN = {"ebay": "eBay"}


class RunningEmulator(Protocol):
    """An emulator listening at ``base`` (``http://127.0.0.1:PORT``): ``config`` is the
    config that points the marketplace's tables at it."""

    base: str

    def config(self) -> dict[str, Any]: ...

    async def stop(self) -> None: ...


class EmulatorServer(Protocol):
    async def start(self, host: str = "127.0.0.1", port: int = 0) -> RunningEmulator:
        """Listen (``port`` 0: a free one) with the emulator built."""
        ...


class LazyServer(Protocol):
    async def start(self) -> RunningEmulator:
        """Listen on a free port at once; build the emulator on the first connection."""
        ...


class Emulator(Protocol):
    def config(self, base: str) -> dict[str, Any]:
        """The config that points the marketplace's tables at an emulator at ``base``."""
        ...

    def running(self) -> EmulatorServer:
        """The emulator's server, not started."""
        ...

    def lazy(self, *, host: str = "127.0.0.1", port: int = 0) -> LazyServer:
        """A server that listens at once (``port`` 0: a free one) and builds the emulator on
        its first connection, which waits for it meanwhile."""
        ...

    async def serve(self, args: argparse.Namespace) -> int:
        """``qlgate sandbox``: run until SIGTERM or Ctrl-C (its arguments: commands/sandbox.py)."""
        ...


_found: dict[str, Emulator] = {}


def _load(points: Any) -> Emulator | None:
    """The first of ``points`` that loads; None when none does."""
    for point in points:
        try:
            return cast(Emulator, point.load())
        except ImportError as error:  # metadata left behind by a removed package
            if (error.name or "").partition(".")[0] != point.module.partition(".")[0]:
                raise  # the package is there; something it imports is not: not ours to hide
    return None


def find_emulator(name: str, *, wanted_by: str) -> Emulator:
    """The installed emulator ``name``; ``wanted_by`` says what asked for it, in the
    error when it is not installed."""
    if name in _found:
        return _found[name]
    emulator = _load(fast.entry_points(GROUP, name))
    if emulator is None:  # nothing in a directory on the path: ask importlib.metadata too
        from importlib.metadata import entry_points

        emulator = _load(entry_points(group=GROUP, name=name))
    if emulator is not None:
        _found[name] = emulator
        return emulator
    distribution = DISTRIBUTIONS.get(name, f"an emulator distribution with a {GROUP} entry point {name!r}")
    install = f"pip install {distribution}"
    source = _SOURCE.get(name)
    raise MissingExtra(
        f"{wanted_by} needs the {_SHOWN.get(name, name)} emulator, which is not installed: {install}"
        + (f" (in a clone of qlgate's repository: pip install -e ./{source})" if source else ""),
        install=install,
    )
