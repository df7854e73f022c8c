"""Diagnostics: every upstream call with timing; secrets masked everywhere."""

import pytest

from qlgate.errors import QlError, UpstreamTimeout
from tests.conftest import run

SECRET = "tok-9f8e7d6c5b4a"
TABLE = {
    "t.ql": "create table t on select get from '{config.base}/t?auth={config.token}&n={n}'",
    "slow.ql": "create table slow.thing on select get from '{config.base}/slow'",
}


async def test_calls_are_recorded_with_masked_urls_and_parallelism(upstream, engine_for):
    upstream.reply("GET", "/t", json_body={"ok": True}, delay=0.05)
    engine = engine_for(TABLE, config={"token": SECRET})
    result = await engine.execute("a = select * from t where n = 1; b = select * from t where n = 2; return 1")
    report = result.diagnostics.to_dict()
    assert [c["status"] for c in report["calls"]] == [200, 200]
    assert all("****" in c["url"] and SECRET not in c["url"] for c in report["calls"])
    assert report["calls_ms"] >= 100 and report["total_ms"] < report["calls_ms"]  # ran in parallel
    assert report["parallelism"] > 1.5
    assert SECRET not in result.diagnostics.render()


async def test_errors_never_carry_secrets(upstream, engine_for):
    upstream.reply("GET", "/t", json_body={"echo": SECRET}, status=401)
    engine = engine_for(TABLE, config={"token": SECRET})
    with pytest.raises(QlError) as info:
        await run(engine, "select * from t where n = 1")
    assert SECRET not in str(info.value.to_dict())


async def test_per_table_timeouts_come_from_config(upstream, engine_for):
    upstream.reply("GET", "/slow", json_body={}, delay=0.5)
    engine = engine_for(TABLE, config={"timeouts": {"slow": 100}})
    with pytest.raises(UpstreamTimeout, match="after 100 ms"):
        await run(engine, "select * from slow.thing")
    assert await run(engine, "select * from slow.thing timeout 2000") == {}


async def test_a_call_cancelled_by_another_statements_failure_says_so_and_names_its_line(upstream, engine_for):
    """The slow call never answered: the run gave it up when the other statement failed.
    Reported as a call without status or error that ended where it started, it read as a
    0 ms success (in the console's waterfall too); now it is ``cancelled``, ends when the
    run stopped waiting for it, and, like every call, names the line of its statement."""
    upstream.reply("GET", "/slow", json_body={}, delay=5)
    upstream.reply("GET", "/t", json_body={"no": True}, status=404, delay=0.05)
    engine = engine_for(TABLE, config={"token": SECRET})
    script = 'a = select * from slow.thing;\n\nb = select * from t where n = 1;\nreturn {"a": "{a}", "b": "{b}"};'
    with pytest.raises(QlError) as info:
        await engine.execute(script)
    calls = {c["url"].split("?")[0].rsplit("/", 1)[1]: c for c in info.value.diagnostics.to_dict()["calls"]}
    slow, failed = calls["slow"], calls["t"]
    assert slow["cancelled"] is True and "status" not in slow and "error" not in slow
    assert "cancelled" not in failed and failed["status"] == 404
    assert slow["end_ms"] >= failed["end_ms"] - 1  # given up once the failure was known…
    assert slow["duration_ms"] > 0 and slow["end_ms"] < 5000  # …and not waited for
    assert (slow["line"], failed["line"]) == (1, 3)
    assert "cancelled" in info.value.diagnostics.render()
