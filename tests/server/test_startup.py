"""A gateway process's start-up (qlgate/server/startup.py): the job backend is opened
before the workspace, so the engine takes the limits its store keeps in its
constructor (issue 29: nothing sets an engine's limits after it is built)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from qlgate.engine.engine import Engine
from qlgate.errors import ConfigError
from qlgate.jobs.factory import open_jobs
from qlgate.server import startup
from qlgate.workspace import load_config


def args_for(tmp_path) -> SimpleNamespace:
    (tmp_path / "tables").mkdir()
    (tmp_path / "routes").mkdir()
    return SimpleNamespace(
        tables=str(tmp_path / "tables"),
        routes=str(tmp_path / "routes"),
        disable_q=False,
        disable_console=False,
        insecure=False,
        access_log=False,
        zookeeper=None,
    )


async def test_the_engine_is_built_with_the_limits_of_the_job_store(tmp_path, monkeypatch):
    given: list[object] = []
    built = Engine.__init__

    def spy(self, *args, **kwargs):
        given.append(kwargs.get("limits"))
        built(self, *args, **kwargs)

    monkeypatch.setattr(Engine, "__init__", spy)
    config = {"jobs": {"database": str(tmp_path / "jobs.sqlite")}}
    gateway = await startup.open_gateway(args_for(tmp_path), config)
    try:
        limits = gateway.workspace.engine.limits
        assert limits is not None and given == [limits]  # before: None, then adopted
        assert not hasattr(Engine, "adopt_limits")
    finally:
        await gateway.close()


async def test_a_workspace_that_fails_to_open_leaves_the_job_store_closed(tmp_path, monkeypatch):
    """The job store is opened first now: a workspace that cannot open (a bad table
    tree, the emulator) must not leave its SQLite file and limits open behind it."""
    stopped: list[object] = []
    real_open = open_jobs

    def spying_open(args, config, **kw):
        jobs = real_open(args, config, **kw)
        stop = jobs.stop

        async def recorded(arg=None):
            stopped.append(arg)
            await stop(arg)

        jobs.stop = recorded
        return jobs

    async def fails(**_):
        raise ConfigError("the workspace cannot open")

    monkeypatch.setattr(startup, "open_jobs", spying_open)
    monkeypatch.setattr(startup.Workspace, "open", fails)
    with pytest.raises(ConfigError, match="cannot open"):
        await startup.open_gateway(args_for(tmp_path), {"jobs": {"database": str(tmp_path / "jobs.sqlite")}})
    assert stopped == [None]


def test_open_jobs_opens_no_limits_for_an_engine_that_has_its_own(tmp_path):
    config = load_config({"jobs": {"database": str(tmp_path / "jobs.sqlite")}})
    jobs = open_jobs(SimpleNamespace(zookeeper=None), config, limits=False)
    try:
        assert jobs.limits is None and jobs.backend is jobs.local
    finally:
        jobs.backend.close()  # type: ignore[attr-defined]
