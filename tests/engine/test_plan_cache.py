"""The plan cache (qlgate/engine/plan_cache.py): scripts that differ only in plain
``where`` literals share one parse and one set of checks, and each gets the plan a
compile of its own would have made."""

from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import qlgate.engine.engine as engine_module
from qlgate.engine.engine import Engine
from qlgate.engine.plan_cache import plan_outline
from qlgate.errors import QlError
from qlgate.lang.lift import lift
from qlgate.trust import Trust
from tests.conftest import run

SHAPES = [
    "select id, title from details where id in (select id from finditems where q = {0}) and ms = {1}",
    "a = select * from t where q = {0} and n = {1}; b = select * from u where z in ({0}, {1}) limit 3\n"
    "return select x from b where y = {1} || a",
    "create table own on select get from 'http://h/{{q}}/{{k}}'\n  return select c from own where q = {0} and k = {1}",
    "if (c) {{ x = select * from t where q = {0} }} else {{ y = select * from u where k = {1} }} return x || y",
    "insert into t (a) values ({0}); return select * from t where id = {1}",
]
TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=10)
PLAIN = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\"'\\{}\u2028\u2029\x85"),
    max_size=10,
)
VALUES = st.one_of(
    PLAIN.map(lambda t: '"' + t + '"'),
    TEXT.map(lambda t: '"' + t + '"'),
    TEXT.map(lambda t: "'" + t + "'"),
    st.integers().map(str),
)


def fresh(script: str, trust: Trust | None = None):
    """The compilation of ``script`` by an engine that has seen nothing else."""
    engine = Engine(config={})
    return engine._compile_new(script, trust or Trust.deployer(), None, None)[0]


def alike(shared, own) -> None:
    assert plan_outline(shared.plan) == plan_outline(own.plan)
    assert [t.name for t in shared.inline] == [t.name for t in own.inline]
    assert (shared.trust, shared.writes, shared.shareable) == (own.trust, own.writes, own.shareable)


@pytest.fixture(scope="module")
def warm():
    """One engine that has compiled each shape once, with other values."""
    engine = Engine(config={})
    for shape in SHAPES:
        for a, b in (('"x1"', '"y1"'), ('"x2"', '"y2"'), ("5", "6"), ("7", "8"), ('"x3"', "9"), ('"x4"', "10")):
            engine.compile(shape.format(a, b))
    return engine


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(SHAPES), VALUES, VALUES)
def test_a_shared_plan_is_the_plan_of_its_own_compile(warm, shape, a, b):
    script = shape.format(a, b)
    try:
        own = fresh(script)
    except QlError as error:
        with pytest.raises(type(error)) as raised:
            warm.compile(script)
        assert (raised.value.line, raised.value.column) == (error.line, error.column)
        return
    event("shared" if warm.cached(script) else "compiled alone")
    alike(warm.compile(script), own)


def test_a_second_value_is_not_parsed(monkeypatch):
    engine = Engine(config={})
    engine.compile(SHAPES[0].format('"x1"', '"-1"'))
    engine.compile(SHAPES[0].format('"x2"', '"-2"'))
    scripts = [SHAPES[0].format(f'"term {i}"', f'"{-i}"') for i in range(20)]
    own = [fresh(script) for script in scripts]
    monkeypatch.setattr(engine_module, "parse", lambda *a, **k: pytest.fail("parsed"))
    for script, expected in zip(scripts, own, strict=True):
        alike(engine.compile(script), expected)


def test_a_limit_is_not_shared():
    engine = Engine(config={})
    engine.compile('select * from t where q = "a" limit 1')
    compiled = engine.compile('select * from t where q = "b" limit 2')
    assert compiled.plan.script.items[0].choices[0].limit == 2


def test_trust_is_part_of_the_key():
    """A shape a deployer's script compiled is not a caller's: the caller's checks run."""
    shape = (
        "create table own on select get from 'http://h/{{config.secret}}/{{q}}'\nreturn select * from own where q = {0}"
    )
    engine = Engine(config={})
    engine.compile(shape.format('"x1"'))
    engine.compile(shape.format('"x2"'))
    with pytest.raises(QlError, match=r"config\.secret"):
        engine.compile(shape.format('"x3"'), trust=Trust.for_callers({}, []))


def test_errors_point_into_the_script_at_hand():
    """A run-time error of a shared plan names the script's own line, column and text."""
    engine = Engine(config={})
    engine.compile('a = select * from t where q = "x"; b = select * from nowhere.table where k = "y"')
    engine.compile('a = select * from t where q = "z"; b = select * from nowhere.table where k = "y"')
    script = 'a = select * from t where q = "a much longer term"; b = select * from nowhere.table where k = "y"'
    statement = plan_outline(engine.compile(script).plan)[0].items[1]
    assert statement.pos.column == script.index("b =") + 1
    assert statement.text == script[script.index("b =") :]


async def test_runs_of_a_shared_plan_send_what_their_own_would(upstream, engine_for):
    upstream.reply("GET", "/item", json_body={"ok": True})
    tables = {"i.ql": "create table i.item on select get from '{config.base}/item?id={id}&n={n}'"}
    shared = engine_for(tables)
    await run(shared, 'return select * from i.item where id = "first" and n = 1')
    await run(shared, 'return select * from i.item where id = "second" and n = 2')
    value = await run(shared, 'return select * from i.item where id = "sec ond" and n = 22')
    own = await run(engine_for(tables), 'return select * from i.item where id = "sec ond" and n = 22')
    assert value == own == {"ok": True}
    assert [r.query for r in upstream.requests][-2:] == [{"id": "sec ond", "n": "22"}] * 2


def test_a_shape_is_learned_from_its_second_script(monkeypatch):
    """One script of a shape costs one parse; the second learns the shape; the third none."""
    engine = Engine(config={})
    calls = []
    real = engine_module.parse
    monkeypatch.setattr(engine_module, "parse", lambda *a, **k: calls.append(a[0]) or real(*a, **k))
    for term in ("a", "b", "c"):
        engine.compile(f'select * from t where q = "{term}"')
    assert [script.count('"') for script in calls] == [2, 2, 2]  # a; b and its shape's sentinel parse; c: none
    assert len(calls) == 3


def test_a_script_of_a_learned_shape_is_cheap_to_compile():
    """``cached`` (the gateway compiles what it says on the event loop, the rest on its
    compile thread) is true for a new script whose shape's plan is known."""
    engine = Engine(config={})
    shape = 'select * from t where q = "{}"'
    engine.compile(shape.format("a"))
    assert not engine.cached(shape.format("b"))  # seen once: not learned yet
    engine.compile(shape.format("b"))
    assert engine.cached(shape.format("c"))
    assert not engine.cached(shape.format("c"), trust=Trust.for_callers({}, []))
    assert not engine.cached('select * from u where q = "c"')


GOLDENS = Path(__file__).resolve().parents[1] / "lang" / "goldens" / "parse"
CASES = Path(__file__).resolve().parents[2].parent / "shared" / "conformance" / "cases"
CORPUS = sorted([*GOLDENS.glob("*.ql"), *CASES.glob("*/script.ql")])


def variant(script: str, lifted, values: list[str]) -> str:
    """``script`` with its lifted literals replaced by ``values``, kinds kept."""
    out, start = [], 0
    for (begin, end), kind, value in zip(lifted.spans, lifted.kinds, values, strict=True):
        out += [script[start:begin], value if kind == "n" else kind + value + kind]
        start = end
    return "".join([*out, script[start:]])


def test_every_script_of_the_corpus_shares_exactly():
    """The parser's golden scripts and the conformance cases: each, compiled from a shape
    learned from two variants with other values, is what its own compile makes."""
    shared = 0
    for path in CORPUS:
        script = path.read_text(encoding="utf-8")
        lifted = lift(script)
        if lifted is None:
            continue
        engine = Engine(config={})
        for n, text in ((7, "a"), (12345, "a much longer value")):
            other = [str(-n) if kind == "n" else text for kind in lifted.kinds]
            try:
                engine.compile(variant(script, lifted, other))
            except QlError:
                break
        try:
            own = fresh(script)
        except QlError:
            continue
        shared += engine.cached(script)
        alike(engine.compile(script), own)
    # 8 of the golden scripts share; with the conformance cases beside the clone (../shared), 20 in all
    assert shared >= (20 if any(CASES.glob("*/script.ql")) else 8)
