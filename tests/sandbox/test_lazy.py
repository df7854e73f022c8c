"""The emulator on demand (``emulator/qlgate_ebay_emulator/lazy.py``): its address is taken at
once, the emulator is built by the first connection, and every connection —
those that arrive while it is being built too — gets its answer."""

from __future__ import annotations

import asyncio

import aiohttp

from qlgate_ebay_emulator.endpoints import SHOPPING_PATH
from qlgate_ebay_emulator.lazy import LazyEmulator


async def test_nothing_is_built_until_something_connects_and_stopping_then_frees_the_port():
    emulator = await LazyEmulator().start()
    host, port = emulator.base.removeprefix("http://").split(":")
    assert not emulator.built and emulator.sandbox is None
    assert emulator.config()["tables"]["ebay"]["shopping"]["gateway"] == f"{emulator.base}{SHOPPING_PATH}"
    await emulator.stop()
    assert not emulator.built
    try:
        await asyncio.wait_for(asyncio.open_connection(host, int(port)), 5)
    except OSError:
        pass  # refused: nothing listens there any more
    else:
        raise AssertionError("the emulator's port still accepts connections")


async def test_connections_made_while_it_is_built_are_all_answered():
    emulator = await LazyEmulator().start()
    url = f"{emulator.base}{SHOPPING_PATH}?callname=GeteBayTime"
    try:
        connector = aiohttp.TCPConnector(force_close=True)
        async with aiohttp.ClientSession(connector=connector) as session:

            async def fetch() -> tuple[int, str]:
                async with session.get(url) as response:
                    return response.status, await response.text()

            answers = await asyncio.gather(*(fetch() for _ in range(8)))
            assert emulator.built and emulator.sandbox is not None
            assert all(status == 200 and "Timestamp" in text for status, text in answers)
            status, _ = await fetch()  # and after it is built, straight to it
            assert status == 200
        control = emulator.sandbox.control_token == emulator.control_token
        assert control
    finally:
        await emulator.stop()


async def test_the_control_endpoints_take_the_token_given_before_it_was_built():
    emulator = await LazyEmulator(control_token="tok-123").start()
    try:
        async with aiohttp.ClientSession() as session:
            async with session.get(f"{emulator.base}/_sandbox/requests") as refused:
                assert refused.status == 401
            headers = {"Authorization": "Bearer tok-123"}
            async with session.get(f"{emulator.base}/_sandbox/requests", headers=headers) as listed:
                assert listed.status == 200
    finally:
        await emulator.stop()
