"""The call path, as it stands while calls wait on their sockets: one task per
upstream call, and at most six coroutine frames in it from the statement's
request (``TableCall._one``) down to the socket — with every step composed
(single flight, the response cache, back-off, limits, a window on the
fan-out). Steps that do not apply are not on the path at all."""

from __future__ import annotations

import asyncio
import types

from qlgate.engine.engine import Engine
from qlgate.limits.open import close_limits, host_limits
from tests.conftest import Reply

TABLE = "create table item on select get from '{config.base}/i?id={id}' expires 60"
MAX_FRAMES = 6


def chain(task: asyncio.Task) -> list[str]:
    """The coroutine frames of ``task``, outermost first, as ``module.function``."""
    names = []
    coro = task.get_coro()
    while isinstance(coro, types.CoroutineType):
        frame = coro.cr_frame
        names.append(f"{frame.f_globals.get('__name__')}.{coro.cr_code.co_name}")
        coro = coro.cr_await
    return names


def from_the_request(frames: list[str]) -> list[str]:
    """The frames from the statement's request down (``TableCall._one`` and below)."""
    start = frames.index("qlgate.engine.table_call._one")
    return frames[start:]


async def calls_in_flight(upstream, expected: int) -> list[list[str]]:
    """Once the upstream holds ``expected`` requests, the frames of each task of a call."""
    for _ in range(500):
        if len(upstream.requests) >= expected:
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)  # the calls are all on the wire, their tasks parked on their sockets
    chains = [chain(task) for task in asyncio.all_tasks()]
    return [
        frames for frames in chains if "qlgate.engine.table_call._one" in frames and "qlgate.http.client.send" in frames
    ]


async def test_a_fan_out_waits_on_its_sockets_in_one_task_and_six_frames_per_call(upstream, tmp_path):
    upstream.handler("GET", "/i", lambda req, body: Reply(body=b'[{"id": "1"}]', delay=0.5))
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "item.ql").write_text(TABLE)
    config = {"base": upstream.base, "maxNestedRequests": 3, "limits": {"types": {"item": "items"}}}
    engine = Engine(tables=tmp_path / "tables", config=config, limits=host_limits(config, tmp_path / "l.sqlite"))
    try:
        script = 'return select id from item where id in ("1", "2", "3", "4")'
        run = asyncio.ensure_future(engine.execute(script))
        in_flight = await calls_in_flight(upstream, 3)
        assert len(in_flight) == 3, in_flight  # one task per call on the wire (the window holds the fourth back)
        for frames in in_flight:
            path = from_the_request(frames)
            assert len(path) <= MAX_FRAMES, path
            assert path[-1] == "qlgate.http.client._send_once", path  # parked on the socket itself
            assert "qlgate.engine.call_steps.send" in path  # every step composed: shared, guarded, recorded
        assert (await run).value == ["1", "1", "1", "1"]
    finally:
        close_limits(engine.limits)
        await engine.close()


async def test_a_write_goes_through_no_step_of_a_read(upstream, engine_for):
    upstream.handler("POST", "/w", lambda req, body: Reply(body=b"{}", delay=0.5))
    engine = engine_for({"w.ql": "create table w on insert post to '{config.base}/w' using defaults a = '1'"})
    run = asyncio.ensure_future(engine.execute('insert into w (b) values ("2")'))
    (frames,) = await calls_in_flight(upstream, 1)
    path = from_the_request(frames)
    # the table call, the guard (back-off, Retry-After), the record, and the client's two
    assert len(path) == 5, path
    await run
