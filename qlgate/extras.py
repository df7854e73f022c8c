"""The optional parts of qlgate and what they need. ``pip install qlgate`` is the
language, the engine, tables, the HTTP client, the memory cache and the gateway —
what ``qlgate run``, ``qlgate.run`` and ``qlgate serve`` on one host need; each
extra adds the dependencies of one feature (pyproject.toml says why each exists):

==========  ==========================  ==================================================
extra       brings                      for
==========  ==========================  ==================================================
gateway     (nothing today)             ``qlgate serve``: qlgate's own server, in the core
login       aiohttp                     ``qlgate auth login``'s redirect on 127.0.0.1
cluster     kazoo, psycopg              ``--zookeeper`` (workers, limiter, the cluster's
                                        job backend) and a PostgreSQL job archive
redis       redis                       the shared response cache (``cache.url: redis://``)
shell       prompt_toolkit, rich        ``qlgate shell``; rich draws ``--format table`` on a
                                        terminal (without it: the plain table pipes get)
openapi     pyyaml                      ``qlgate import openapi`` of a YAML spec (JSON needs
                                        nothing)
js          quickjs                     ql.io's EJS body templates and ``.js`` patch modules,
                                        run in a sandbox (``qlgate/js/``)
==========  ==========================  ==================================================

A feature calls ``require`` where it starts, before importing the modules that
import its dependencies at their top: a missing one is a ``MissingExtra`` naming
the command that installs it, never an ImportError's traceback. The eBay
emulator is a distribution of its own, found by entry point (``emulators.py``).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .errors import MissingExtra

__all__ = ["EXTRAS", "install_command", "require"]

# extra → the top-level modules it brings (tests/test_extras.py checks pyproject.toml agrees)
EXTRAS: dict[str, tuple[str, ...]] = {
    "gateway": (),
    "login": ("aiohttp",),
    "cluster": ("kazoo", "psycopg"),
    "redis": ("redis",),
    "shell": ("prompt_toolkit", "rich"),
    "openapi": ("yaml",),
    "js": ("quickjs",),
}


def install_command(extra: str) -> str:
    return f"pip install 'qlgate[{extra}]'"


def missing(module: str, error: ImportError) -> bool:
    """Is ``error`` the absence of ``module`` (or a submodule of it) itself, rather than
    a failure inside it or of something else?"""
    name = error.name or ""
    root = module.partition(".")[0]
    return name == root or name.startswith(root + ".")


def require(module: str, extra: str, feature: str) -> ModuleType:
    """``module`` imported, or a ``MissingExtra`` that says ``feature`` needs ``extra``."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        if not missing(module, error):
            raise
        install = install_command(extra)
        raise MissingExtra(
            f"{feature} needs the {module.partition('.')[0]} package, which is not installed: {install}",
            install=install,
            extra=extra,
        ) from None
