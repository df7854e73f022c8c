"""A deployment on disk, and the one way in to it.

Every entry point that runs scripts — ``qlgate run``, the gateway (``/q``,
routes, the console, ``POST /jobs``), ``qlgate jobs submit`` and the workers —
opens its engine here: the tables and routes trees and the config are found the
same way, the eBay emulator (a distribution of its own) is started when the config wants it, and
the trust policy for caller input is built once from the config
(``gateway.adhoc``). Each entry point then says which trust a script runs under
(``workspace.trust("caller")`` for what arrives at run time, the deployer's for
what is on disk), so no entry point can forget the policy by building an
engine of its own.

    async with await Workspace.open(tables="tables", config="config/dev.json") as ws:
        result = await ws.engine.execute(script, trust=ws.trust("caller"))
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .config import Config
from .trust import CALLER, DEPLOYER, Trust

if TYPE_CHECKING:  # the engine is imported when a workspace opens: the CLI starts without it
    from .emulators import RunningEmulator
    from .engine.engine import Engine
    from .limits.gate import CallLimits

DEFAULT_CONFIG = "config/dev.json"


def default_dir(given: str | Path | None, name: str) -> str | None:
    """``--tables``/``--routes`` as given, else ``./tables``/``./routes`` when they exist."""
    if given:
        return str(given)
    return name if Path(name).is_dir() else None


def default_config(given: str | Path | None) -> str | None:
    """``--config`` as given, else ``config/dev.json`` when it exists."""
    if given:
        return str(given)
    return DEFAULT_CONFIG if Path(DEFAULT_CONFIG).is_file() else None


def load_config(given: str | Path | Config | dict | None) -> Config:
    if isinstance(given, Config):
        return given
    if isinstance(given, dict):
        return Config.from_dict(given)
    return Config.load(default_config(given))


class Workspace:
    def __init__(self, engine: Engine, callers: Trust | None = None, emulator: RunningEmulator | None = None):
        """``callers``: what caller input runs under; None: worked out from the config and
        the tables on first use (the config's policy is checked now)."""
        self.engine = engine
        self.emulator = emulator  # started for this workspace, stopped with it
        self._callers = callers
        self._callers_without_console: Trust | None = None
        if callers is None:
            Trust.for_callers(engine.config.view, ())  # a bad policy fails now, not at first use

    @property
    def callers(self) -> Trust:
        """What caller input runs under (allowed hosts: by default, those the tables call)."""
        if self._callers is None:
            self._callers = Trust.for_callers(self.engine.config.view, self.engine.tables.tables())
        return self._callers

    @property
    def callers_without_console(self) -> Trust:
        if self._callers_without_console is None:
            self._callers_without_console = self.callers.without_introspection()
        return self._callers_without_console

    @classmethod
    async def open(
        cls,
        *,
        tables: str | Path | None = None,
        routes: str | Path | None = None,
        config: str | Path | Config | dict | None = None,
        emulator: bool = True,
        lazy: bool = False,
        limits: CallLimits | None = None,
    ) -> Workspace:
        """Find the trees and the config (defaults: ``./tables``, ``./routes``,
        ``config/dev.json``), start the emulator if the config asks for it (and
        ``emulator`` allows), and open the engine. ``lazy`` (``qlgate run``, one script):
        tables are compiled when the script names them (through the table index) and
        the emulator is built when something first calls it. ``limits``: what the
        engine's calls count against (``qlgate.limits.open``); the caller closes them."""
        from .engine.engine import Engine

        loaded = load_config(config)
        sandbox = None
        if emulator:
            from .ebay.emulation import start_if_wanted

            loaded, sandbox = await start_if_wanted(loaded, lazily=lazy)
        try:
            return cls.of(
                Engine(
                    tables=default_dir(tables, "tables"),
                    routes=default_dir(routes, "routes"),
                    config=loaded,
                    lazy_tables=lazy,
                    limits=limits,
                ),
                emulator=sandbox,
            )
        except BaseException:
            if sandbox is not None:
                await sandbox.stop()
            raise

    @classmethod
    def load(
        cls,
        *,
        tables: str | Path | None = None,
        routes: str | Path | None = None,
        config: str | Path | Config | dict | None = None,
    ) -> Workspace:
        """The workspace without the emulator, for commands that compile scripts but
        call no upstream (``qlgate jobs submit`` deriving a job's types)."""
        from .engine.engine import Engine

        return cls.of(
            Engine(
                tables=default_dir(tables, "tables"), routes=default_dir(routes, "routes"), config=load_config(config)
            )
        )

    @classmethod
    def of(cls, engine: Engine, *, emulator: RunningEmulator | None = None) -> Workspace:
        """A workspace around an engine already open (tests, embedding applications)."""
        if engine.tables.lazy:  # the caller policy's hosts would compile every table: on first use
            return cls(engine, None, emulator)
        return cls(engine, Trust.for_callers(engine.config.view, engine.tables.tables()), emulator)

    @property
    def config(self) -> Config:
        return self.engine.config

    @property
    def problems(self) -> list[Any]:
        return self.engine.problems

    def trust(self, kind: str) -> Trust:
        """The policy for ``"caller"`` input or ``"deployer"`` code (a job records which).
        A caller's job runs without ``describe``/``show``: the key that submitted it
        need not hold the console scope."""
        if kind == CALLER:
            return self.callers_without_console
        if kind == DEPLOYER:
            return Trust.deployer()
        raise ValueError(f"unknown trust {kind!r}")

    async def close(self) -> None:
        await self.engine.close()
        if self.emulator is not None:
            await self.emulator.stop()
            self.emulator = None

    async def __aenter__(self) -> Workspace:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()
