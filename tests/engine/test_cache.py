"""The response cache and single flight in one process (qlgate/cache): tables and
statements with ``expires``, what is never stored, the compute_key hook,
coalescing of identical reads across runs, diagnostics."""

import asyncio
import time

import pytest

from qlgate.errors import QlError
from tests.conftest import run

TABLES = {
    "c.ql": "create table c.item on select get from '{config.base}/item?id={id}' expires 60",
    "n.ql": "create table n.item on select get from '{config.base}/item?id={id}'",
    "s.ql": "create table s.item on select get from '{config.base}/item?id={id}' expires 1",
    "p.ql": "create table p.item on select post to '{config.base}/item?id={id}'",
    "k.ql": "create table k.item on select get from '{config.base}/item?id={id}' "
    "using headers 'Authorization' = '{token}' expires 60",
    "h.ql": "create table h.item on select get from '{config.base}/item?id={id}&t={t}' using patch 'h.py' expires 60",
    "h.py": "def compute_key(ctx):\n    return 'item:' + ctx.params['id']\n",
}
SCRIPT = 'return select * from {table} where id = "7";'


def calls(upstream, path="/item"):
    return sum(1 for r in upstream.requests if r.path == path)


async def test_four_identical_requests_make_one_call(upstream, engine_for):
    upstream.reply("GET", "/item", json_body={"id": 7})
    engine = engine_for(TABLES)
    results = [await engine.execute(SCRIPT.format(table="c.item")) for _ in range(4)]
    assert all(r.value == {"id": 7} for r in results)
    assert calls(upstream) == 1
    assert [c.source for r in results for c in r.diagnostics.calls] == ["sent", "cache", "cache", "cache"]
    report = results[1].diagnostics.to_dict()
    assert report["cache_hits"] == 1 and report["sent"] == 0 and report["calls"][0]["source"] == "cache"
    assert "[cache]" in results[1].diagnostics.render()


@pytest.mark.parametrize("header", ["request-id", "X-Request-ID"])
async def test_the_runs_request_id_is_not_part_of_the_key_whatever_its_headers_case(upstream, engine_for, header):
    """Each run sends its own id (config ``requestIdHeader``, as written there): it must
    not make every run's key its own, or the cache would never answer a second run."""
    upstream.reply("GET", "/item", json_body={"id": 7})
    engine = engine_for(TABLES, {"requestIdHeader": header})
    for rid in ("run-1", "run-2", "run-3"):
        await run(engine, SCRIPT.format(table="c.item"), request_id=rid)
    assert calls(upstream) == 1
    sent = [v for r in upstream.requests for k, v in r.headers.items() if k.lower() == header.lower()]
    assert sent == ["run-1"]


async def test_no_caching_without_expires(upstream, engine_for):
    upstream.reply("GET", "/item", json_body={"id": 7})
    engine = engine_for(TABLES)
    for _ in range(3):
        await run(engine, SCRIPT.format(table="n.item"))
    assert calls(upstream) == 3


async def test_statement_expires_caches_and_expires_0_does_not(upstream, engine_for):
    upstream.reply("GET", "/item", json_body={"id": 7})
    engine = engine_for(TABLES)
    for _ in range(3):
        await run(engine, 'return select * from n.item where id = "7" expires 30;')
    assert calls(upstream) == 1
    for _ in range(2):
        await run(engine, 'return select * from c.item where id = "7" expires 0;')
    assert calls(upstream) == 3


async def test_expiry_is_honoured(upstream, engine_for):
    upstream.reply("GET", "/item", json_body={"id": 7})
    engine = engine_for(TABLES)
    await run(engine, SCRIPT.format(table="s.item"))
    await run(engine, SCRIPT.format(table="s.item"))
    assert calls(upstream) == 1
    await asyncio.sleep(1.1)
    await run(engine, SCRIPT.format(table="s.item"))
    assert calls(upstream) == 2


async def test_a_reader_takes_no_answer_older_than_its_own_expires(upstream, engine_for):
    """The same URL cached for a minute by one table is a second old for a reader
    whose table (or statement) keeps answers one second: it calls again."""
    upstream.reply("GET", "/item", json_body={"id": 7})
    engine = engine_for(TABLES)
    await run(engine, SCRIPT.format(table="c.item"))  # stored for 60 s
    await run(engine, SCRIPT.format(table="s.item"))  # fresh for s.item too: it is not 1 s old
    assert calls(upstream) == 1
    await asyncio.sleep(1.1)
    await run(engine, SCRIPT.format(table="s.item"))
    assert calls(upstream) == 2
    await asyncio.sleep(1.1)
    await run(engine, 'return select * from c.item where id = "7" expires 1;')
    assert calls(upstream) == 3
    await run(engine, SCRIPT.format(table="c.item"))  # just stored: fresh for the table too
    assert calls(upstream) == 3
    await asyncio.sleep(1.1)  # the statement's "expires 1" bounded its read, not the table's entry
    await run(engine, SCRIPT.format(table="c.item"))
    assert calls(upstream) == 3


async def test_non_2xx_not_cached_unless_negative(upstream, engine_for):
    upstream.reply("GET", "/item", json_body={"err": "gone"}, status=404)
    engine = engine_for(TABLES)
    for _ in range(2):
        with pytest.raises(QlError):
            await run(engine, SCRIPT.format(table="c.item"))
    assert calls(upstream) == 2
    negative = engine_for(TABLES, config={"cache": {"negative": 30}})
    for _ in range(2):
        with pytest.raises(QlError):
            await run(negative, SCRIPT.format(table="c.item"))
    assert calls(upstream) == 3


async def test_5xx_never_cached(upstream, engine_for):
    upstream.reply("GET", "/item", json_body={"err": "down"}, status=503)
    engine = engine_for(TABLES, config={"cache": {"negative": 30}})
    for _ in range(2):
        with pytest.raises(QlError):
            await run(engine, SCRIPT.format(table="c.item"))
    assert calls(upstream) == 2


async def test_caller_credentials_are_not_cached(upstream, engine_for):
    upstream.reply("GET", "/item", json_body={"id": 7})
    engine = engine_for(TABLES)
    for _ in range(2):
        await run(engine, 'token = "Bearer callers-own-123"; return select * from k.item where id = "7";')
    assert calls(upstream) == 2
    # the deployer's secret from config is the deployer's: cached
    engine2 = engine_for(
        {
            "d.ql": TABLES["c.ql"]
            .replace("c.item", "d.item")
            .replace("expires", "using headers 'X-Api-Key' = '{config.apiKey}' expires")
        },
        config={"apiKey": "deployer-key-42"},
    )
    for _ in range(2):
        await run(engine2, SCRIPT.format(table="d.item"))
    assert calls(upstream) == 3


async def test_compute_key_hook_chooses_the_key(upstream, engine_for):
    upstream.reply("GET", "/item", json_body={"id": 7})
    engine = engine_for(TABLES)
    await run(engine, 'return select * from h.item where id = "7" and t = "1";')
    await run(engine, 'return select * from h.item where id = "7" and t = "2";')  # same key by the hook
    assert calls(upstream) == 1
    await run(engine, 'return select * from h.item where id = "8" and t = "2";')
    assert calls(upstream) == 2


@pytest.mark.changes_results
async def test_concurrent_identical_reads_without_expires_share_one_call(upstream, engine_for):
    upstream.reply("GET", "/item", json_body={"id": 7}, delay=0.3)
    engine = engine_for(TABLES)
    results = await asyncio.gather(*(engine.execute(SCRIPT.format(table="n.item")) for _ in range(50)))
    assert all(r.value == {"id": 7} for r in results)
    assert calls(upstream) == 1
    sources = sorted(c.source for r in results for c in r.diagnostics.calls)
    assert sources.count("sent") == 1 and sources.count("coalesced") == 49
    # each waiter gets its own copy
    results[0].value["id"] = 99
    assert results[1].value == {"id": 7}
    await run(engine, SCRIPT.format(table="n.item"))  # not cached: nothing in flight now
    assert calls(upstream) == 2


async def test_runs_that_only_read_their_results_share_the_decoded_answer(upstream, engine_for):
    # the gateway's runs encode their result and drop it: one decode serves every reader
    # of a shared call; a run whose result is handed back to Python code gets its own
    upstream.reply("GET", "/item", json_body={"id": 7, "tags": ["a", "b"]}, delay=0.3)
    engine = engine_for(TABLES)
    compiled = engine.compile(SCRIPT.format(table="n.item"))
    readers = [engine.run_compiled(compiled, shares_answers=True) for _ in range(3)]
    results = await asyncio.gather(*readers, engine.run_compiled(compiled))
    assert calls(upstream) == 1
    first, second, third, own = (r.value for r in results)
    assert first == own == {"id": 7, "tags": ["a", "b"]}
    assert first is second is third
    assert own is not first and own["tags"] is not first["tags"]


UDFS = {
    "u.py": "def top(ctx, rows):\n"
    "    rows.sort(key=lambda r: -r['p'])  # in place, as Python code may\n"
    "    return rows[:1]\n"
    "\n"
    "def tag(ctx):\n"
    "    for row in ctx.rows:\n"
    "        row['tagged'] = True\n"
    "    return ctx.rows\n",
}


@pytest.mark.changes_results  # the UDFs change their rows on purpose
async def test_a_run_that_hands_values_to_udfs_never_shares_them(upstream, engine_for):
    # deployer code may change what it is given in place: such a run decodes its own copy,
    # so a concurrent plain run's answer stays as the upstream sent it
    upstream.reply("GET", "/item", json_body=[{"id": 1, "p": 1}, {"id": 2, "p": 9}], delay=0.3)
    engine = engine_for({**TABLES, **UDFS})
    plain = engine.compile(SCRIPT.format(table="n.item"))
    sorter = engine.compile('u = require("u.py"); hits = select * from n.item where id = "7"; return u.top(hits);')
    tagger = engine.compile('u = require("u.py"); return select * from n.item where id = "7" and u.tag();')
    assert plain.shareable and not sorter.shareable and not tagger.shareable
    results = await asyncio.gather(
        *(engine.run_compiled(c, shares_answers=True) for c in (sorter, tagger, plain, plain))
    )
    assert calls(upstream) == 1
    top, tagged, first, second = (r.value for r in results)
    assert top == [{"id": 2, "p": 9}] and all(row["tagged"] for row in tagged)
    assert first == second == [{"id": 1, "p": 1}, {"id": 2, "p": 9}]
    assert first is second


@pytest.mark.changes_results  # the patch changes a variable's value on purpose
async def test_a_run_that_calls_a_patched_table_never_shares_its_answers(upstream, engine_for):
    # a patch's hooks see the run's variables (ctx.vars), and may change them in place
    upstream.reply("GET", "/item", json_body=[{"id": 1}], delay=0.3)
    upstream.reply("GET", "/other", json_body={"ok": 1})
    engine = engine_for(
        {
            **TABLES,
            "o.ql": "create table o.other on select get from '{config.base}/other?q={q}' using patch 'o.py'",
            "o.py": "def patch_uri(ctx):\n    ctx.vars['hits'].append({'id': 'from a patch'})\n",
        }
    )
    patched = engine.compile(
        'hits = select * from n.item where id = "7"; return select * from o.other where q = "{hits.length}";'
    )
    plain = engine.compile(SCRIPT.format(table="n.item"))
    assert not patched.shareable
    results = await asyncio.gather(*(engine.run_compiled(c, shares_answers=True) for c in (patched, plain)))
    assert calls(upstream) == 1
    assert results[1].value == [{"id": 1}]


async def test_posts_are_never_coalesced(upstream, engine_for):
    upstream.reply("POST", "/item", json_body={"id": 7}, delay=0.2)
    engine = engine_for(TABLES)
    await asyncio.gather(*(engine.execute(SCRIPT.format(table="p.item")) for _ in range(5)))
    assert calls(upstream) == 5


async def test_errors_are_shared_as_copies(upstream, engine_for):
    upstream.reply("GET", "/item", json_body={"err": "down"}, status=500, delay=0.2)
    engine = engine_for(TABLES)
    outcomes = await asyncio.gather(
        *(engine.execute(SCRIPT.format(table="n.item")) for _ in range(5)), return_exceptions=True
    )
    assert all(isinstance(o, QlError) for o in outcomes)
    assert len({id(o) for o in outcomes}) == 5
    assert calls(upstream) == 1


async def test_stale_while_revalidate(upstream, engine_for):
    upstream.reply("GET", "/item", json_body={"id": 7})
    engine = engine_for(TABLES, config={"cache": {"staleWhileRevalidate": 30}})
    await run(engine, SCRIPT.format(table="s.item"))
    await asyncio.sleep(1.1)
    result = await engine.execute(SCRIPT.format(table="s.item"))
    assert result.diagnostics.calls[0].source == "cache" and result.diagnostics.calls[0].stale
    deadline = time.monotonic() + 2
    while calls(upstream) < 2 and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    assert calls(upstream) == 2  # refreshed in the background
    result = await engine.execute(SCRIPT.format(table="s.item"))
    assert result.diagnostics.calls[0].source == "cache" and not result.diagnostics.calls[0].stale


async def test_memory_budget_evicts(upstream, engine_for):
    upstream.reply("GET", "/item", json_body={"pad": "x" * 4000})
    engine = engine_for(TABLES, config={"cache": {"backend": "memory", "maxBytes": 10_000}})
    for i in range(5):
        await run(engine, f'return select * from c.item where id = "{i}";')
    backend = engine.responses.backend
    assert backend is not None and backend.bytes <= 10_000 and len(backend) == 2


async def test_cache_off(upstream, engine_for):
    upstream.reply("GET", "/item", json_body={"id": 7})
    engine = engine_for(TABLES, config={"cache": {"backend": "none"}})
    for _ in range(2):
        await run(engine, SCRIPT.format(table="c.item"))
    assert calls(upstream) == 2
