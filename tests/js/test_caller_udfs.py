"""Callers' own JavaScript UDFs (``gateway.adhoc.udfs``, off by default): a ``/q``
script may define a small module inline and call its functions as UDFs; it runs in
the sandbox under tighter limits, where nothing reaches the host."""

from __future__ import annotations

import pytest

from tests.conftest import served

DOUBLE = 'u = require("javascript: exports.double = function (x) { return x * 2; };"); return u.double(21)'


async def answer(engine, script: str) -> tuple[int, object]:
    async with served(engine) as client:
        async with client.post("/q", data=script) as response:
            return response.status, await response.json()


async def test_they_are_off_by_default(make_engine):
    status, body = await answer(make_engine({}), DOUBLE)
    assert status == 400 and "gateway.adhoc.udfs" in body["err"]


async def test_when_on_a_caller_defines_and_calls_one(make_engine):
    pytest.importorskip("quickjs", reason="the js extra (quickjs) is not installed")
    engine = make_engine({}, {"gateway": {"adhoc": {"udfs": True}}})
    assert await answer(engine, DOUBLE) == (200, 42)
    # still no files: a require of a module file stays refused
    status, body = await answer(engine, 'u = require("u.js"); return u.f()')
    assert status == 400 and "may not load code" in body["err"]


@pytest.mark.parametrize(
    ("source", "status", "message"),
    [
        ("exports.f = function () { for (;;) {} };", 504, "inline.js:1: ran past its 50 ms CPU limit"),
        ("exports.f = function () { return require('fs'); };", 500, "the sandbox has no modules"),
        ("exports.f = function () { return process.env; };", 500, "'process' is not defined"),
        ("exports.f = function () { var s = 'x'; for (;;) s += s; };", 500, "8 MB memory limit"),
    ],
)
async def test_what_they_cannot_do(make_engine, source: str, status: int, message: str):
    pytest.importorskip("quickjs", reason="the js extra (quickjs) is not installed")
    engine = make_engine({}, {"gateway": {"adhoc": {"udfs": True}}})
    got, body = await answer(engine, f'u = require("javascript: {source}"); return u.f()')
    assert got == status and message in body["err"]
