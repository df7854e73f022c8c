"""Limits on every call, in one engine and across the processes of a host: the
store is the embedded job backend's SQLite file, the witness a loopback partner
that counts its own calls in flight (``tests/jobs/observer.py``)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from qlgate.engine.engine import Engine
from qlgate.jobs.local import LocalJobs
from qlgate.limits import LimitExceeded
from qlgate.limits.open import close_limits, host_limits
from qlgate.limits.rate import Rate
from tests.jobs.observer import TABLES
from tests.processes import drain, said

ROOT = Path(__file__).resolve().parents[2]


def fan_out(n: int, ms: int, label: str = "j", api: str = "a") -> str:
    jobs = ", ".join(f'"{label}{i}"' for i in range(n))
    return f'return select * from partner.{api}.call where ms = "{ms}" and job in ({jobs})'


@pytest.fixture
def database(tmp_path):
    return tmp_path / "jobs.sqlite"


@pytest.fixture
def records(database):
    """Where ``qlgate jobs limits/rates`` write: the embedded backend's file."""
    jobs = LocalJobs(database)
    yield jobs
    jobs.close()


@pytest.fixture
async def engine(tmp_path, database, observer):
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "partner.ql").write_text(TABLES)
    config = {"base": observer.base}
    engine = Engine(tables=tmp_path / "tables", config=config, limits=host_limits(config, database))
    yield engine
    close_limits(engine.limits)
    await engine.close()


async def test_calls_in_flight_hold_to_the_types_limit(engine, records, observer):
    records.set_limit("partner.a", 3)
    result = await engine.execute(fan_out(12, 100))
    assert len(result.value["job"]) == 12
    assert observer.max_in_flight["partner.a"] == 3  # reached, never passed
    queued = [c.queued for c in result.diagnostics.calls if c.queued]
    assert len(queued) >= 8 and result.diagnostics.to_dict()["queued_ms"] > 0


async def test_a_type_without_limits_is_not_held(engine, records, observer):
    records.set_limit("partner.b", 1)  # another type's limit
    await engine.execute(fan_out(8, 100))
    assert observer.max_in_flight["partner.a"] == 8


async def test_a_call_that_cannot_get_through_in_its_time_is_a_429_naming_its_type(engine, records, observer):
    records.set_limit("partner.a", 1)
    slow = asyncio.create_task(engine.execute(fan_out(1, 1500, "slow")))
    while observer.in_flight["partner.a"] < 1:
        await asyncio.sleep(0.02)
    began = time.monotonic()
    with pytest.raises(LimitExceeded) as caught:
        await engine.execute('return select * from partner.a.call where ms = "1" and job = "x" timeout 300')
    assert 0.25 < time.monotonic() - began < 3
    error = caught.value
    assert error.status == 429 and error.details["api"] == "partner.a" and error.details["limit"] == "inFlight"
    assert error.details["retry_after"] >= 1 and "partner.a" in error.message
    await slow


async def test_a_paused_type_refuses_at_once(engine, records, observer):
    records.set_limit("partner.a", 0)
    began = time.monotonic()
    with pytest.raises(LimitExceeded, match="paused"):
        await engine.execute(fan_out(1, 1))
    assert time.monotonic() - began < 0.5 and observer.calls["partner.a"] == 0


async def test_a_callers_own_table_counts_against_the_types_of_its_host(engine, records, observer):
    """A caller cannot walk around partner.a's limit by naming a table of its own."""
    from qlgate.trust import Trust

    records.set_limit("partner.a", 1)
    trust = Trust.for_callers(engine.config.data, engine.tables.tables())
    script = (
        f'create table mine.t on select get from "{observer.base}/call?type=mine&ms=200&job={{id}}";\n'
        'return select * from mine.t where id in ("1", "2", "3", "4");'
    )
    await engine.execute(script, trust=trust)
    assert observer.calls["mine"] == 4 and observer.max_in_flight["mine"] == 1


async def test_a_job_waiting_for_midnight_holds_no_call_in_flight(engine, records, observer):
    """A spent daily quota: a job's call waits for midnight without holding one of the
    type's calls in flight, and a caller's call is told at once that the quota is spent."""
    records.set_limit("partner.a", 1)
    records.set_rate("partner.a", Rate(1, "day"))
    await engine.execute(fan_out(1, 1, "first"))
    waiting = asyncio.create_task(engine.limits.acquire("partner.a.call", patient=True))
    await asyncio.sleep(0.3)
    began = time.monotonic()
    with pytest.raises(LimitExceeded) as caught:
        await engine.execute(fan_out(1, 1, "second"))
    assert time.monotonic() - began < 0.5 and caught.value.details["limit"] == "rate"
    assert not waiting.done()
    waiting.cancel()


async def test_a_spent_daily_quota_fails_at_once_until_midnight(engine, records, observer):
    records.set_rate("partner.a", Rate(3, "day", "America/Los_Angeles"))
    for i in range(3):
        await engine.execute(f'return select * from partner.a.call where ms = "1" and job = "q{i}"')
    began = time.monotonic()
    with pytest.raises(LimitExceeded) as caught:
        await engine.execute('return select * from partner.a.call where ms = "1" and job = "q4"')
    assert time.monotonic() - began < 0.5
    assert observer.calls["partner.a"] == 3
    assert 0 < caught.value.details["retry_after"] <= 25 * 3600 and caught.value.details["limit"] == "rate"


async def test_a_per_second_rate_spaces_every_call(engine, records, observer):
    from qlgate.limits.slots import busiest_window

    records.set_rate("partner.a", Rate(10, "second"))
    began = time.monotonic()
    result = await engine.execute(fan_out(25, 1))
    assert len(result.value["job"]) == 25
    assert time.monotonic() - began > 1.3  # 25 calls at 10/s: the first 10 go at once at most
    assert busiest_window([t for t, kind, _ in observer.started if kind == "partner.a"]) <= 10


def run_in_another_process(database: Path, tables: Path, base: str, script: str) -> subprocess.Popen:
    config = tables.parent / "other.json"
    config.write_text(f'{{"base": "{base}", "jobs": {{"database": "{database}"}}}}')
    proc = subprocess.Popen(
        [sys.executable, "-m", "qlgate", "run", "--tables", str(tables), "--config", str(config), "-e", script],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    drain(proc)
    return proc


def wait_for_calls(observer, kind: str, count: int, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while observer.in_flight[kind] < count:
        assert time.monotonic() < deadline, f"{count} calls of {kind} never were in flight"
        time.sleep(0.02)


async def test_qlgate_run_in_another_process_counts_against_the_same_limit(
    engine, records, observer, tmp_path, database
):
    records.set_limit("partner.a", 1)
    other = run_in_another_process(database, tmp_path / "tables", observer.base, fan_out(1, 1500, "other"))
    try:
        wait_for_calls(observer, "partner.a", 1)
        began = time.monotonic()
        result = await engine.execute(fan_out(1, 10, "here"))
        assert time.monotonic() - began > 0.5  # it waited for the other process's call to end
        assert result.diagnostics.calls[0].queued > 0.5
        assert other.wait(20) == 0, said(other)
    finally:
        other.kill()
    assert observer.max_in_flight["partner.a"] == 1


async def test_a_process_killed_mid_call_gives_its_calls_in_flight_back(engine, records, observer, tmp_path, database):
    records.set_limit("partner.a", 2)
    other = run_in_another_process(database, tmp_path / "tables", observer.base, fan_out(2, 4000, "killed"))
    try:
        wait_for_calls(observer, "partner.a", 2)
        os.kill(other.pid, signal.SIGKILL)
        other.wait(10)
    finally:
        other.kill()
    began = time.monotonic()
    await engine.execute(fan_out(2, 10, "after"))  # the dead process's units count no more
    assert time.monotonic() - began < 2


async def test_a_process_busy_at_the_limit_makes_room_for_another_that_waits(
    engine, records, observer, tmp_path, database
):
    """Fair shares: another process runs 16 calls of 400 ms at a limit of 2 (3.2 s at
    best); a call here gets through as soon as one of its calls ends, not after all."""
    records.set_limit("partner.a", 2)
    other = run_in_another_process(database, tmp_path / "tables", observer.base, fan_out(16, 400, "busy"))
    try:
        wait_for_calls(observer, "partner.a", 2)
        began = time.monotonic()
        await engine.execute(fan_out(1, 10, "here"))
        assert time.monotonic() - began < 1.3
        assert other.poll() is None  # the other process is still at it
        assert other.wait(30) == 0, said(other)
    finally:
        other.kill()
    assert observer.max_in_flight["partner.a"] == 2
