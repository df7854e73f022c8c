"""The event loop stays free (issue 13, item 8): the costliest scripts a caller
may send compile on the gateway's compile thread, failed compiles are cached,
and brackets nested beyond any real script are refused before parsing."""

from __future__ import annotations

import asyncio
import gc
import time

from qlgate.lang.parser import MAX_NESTING

LIMIT = 65536


def worst_scripts(count: int) -> list[str]:
    """Scripts of the maximum length that parse and plan, each costing a few hundred
    milliseconds of CPU; distinct, so no compile is a cache hit."""
    out = []
    for n in range(count):
        head, tail = f"x = {n}; return [", "1];"
        unit = "[" * 60 + "]" * 60 + ","
        out.append(head + unit * ((LIMIT - len(head) - len(tail)) // len(unit)) + tail)
    return out


async def _health_latencies(client, stop: asyncio.Event) -> list[float]:
    latencies = []
    while not stop.is_set():
        started = time.perf_counter()
        async with client.get("/health") as resp:
            assert resp.status == 200
        latencies.append(time.perf_counter() - started)
        await asyncio.sleep(0.01)
    return latencies


async def test_health_answers_while_the_worst_scripts_compile(gateway):
    scripts = worst_scripts(4)
    assert all(len(s) <= LIMIT for s in scripts)
    # the gateway runs in this test's process, whose heap holds what every test before it
    # left: frozen, as ``qlgate serve`` freezes its own once loaded (``settle_heap``), so a
    # full collection of the suite's garbage is not what the probe measures
    gc.collect()
    gc.freeze()
    try:
        await _health_while_compiling(gateway, scripts)
    finally:
        gc.unfreeze()


async def _health_while_compiling(gateway, scripts: list[str]) -> None:
    async with gateway({}) as client:
        stop = asyncio.Event()
        probe = asyncio.create_task(_health_latencies(client, stop))
        started = time.perf_counter()

        async def post(script):
            async with client.post("/q", data=script, headers={"Content-Type": "text/plain"}) as resp:
                assert resp.status == 200, await resp.text()

        await asyncio.gather(*(post(s) for s in scripts))
        compiling = time.perf_counter() - started
        stop.set()
        latencies = await probe
    assert compiling > 0.8 and len(latencies) >= 5  # the compiles did take a while (~0.4 s each)
    # compiled on the loop, a probe would wait out a whole compile (~400 ms on a quiet machine,
    # more on a loaded one); on the compile thread it waits at most for a GIL switch or a
    # collection: well under half of one compile, as measured here, whatever the machine's load
    one_compile = compiling / len(scripts)  # they compile one after another, on one thread
    bound = max(0.2, one_compile / 2)
    assert max(latencies) < bound, f"/health took {max(latencies) * 1000:.0f} ms while scripts compiled"


async def test_failed_compiles_are_cached(gateway):
    bad = worst_scripts(1)[0][:-3] + "1 oops];"
    async with gateway({}) as client:
        timings = []
        for _ in range(3):
            started = time.perf_counter()
            async with client.post("/q", data=bad, headers={"Content-Type": "text/plain"}) as resp:
                assert resp.status == 400 and (await resp.json())["type"] == "QlSyntaxError"
            timings.append(time.perf_counter() - started)
    assert timings[1] < timings[0] / 4 and timings[2] < timings[0] / 4, timings


async def test_deep_nesting_is_refused_at_once_with_its_position(gateway):
    async with gateway({}) as client:
        for script in ('return "' + "{" * 30000 + "x" + "}" * 30000 + '";', "return " + "[" * 65000):
            started = time.perf_counter()
            async with client.post("/q", data=script, headers={"Content-Type": "text/plain"}) as resp:
                body = await resp.json()
            assert resp.status == 400 and body["type"] == "QlSyntaxError"
            assert f"nested more than {MAX_NESTING} deep" in body["err"] and body["line"] == 1
            assert body["column"] == len(script.split("{")[0].split("[")[0]) + MAX_NESTING + 1
            assert time.perf_counter() - started < 0.5
