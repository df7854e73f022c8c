"""A few lines of script cannot build gigabytes or stall the loop (issue 13,
"cannot wedge or stall the server"): what a run builds, compares and walks is
counted against config ``scriptBudget``; paths and filters are bounded too."""

from __future__ import annotations

import time

import pytest

from qlgate.engine.engine import MAX_CACHED_CHARS, Engine
from qlgate.errors import QlError, ScriptBudgetExceeded
from qlgate.lang.paths import MAX_VISITS
from qlgate.trust import Trust

CALLER = Trust.for_callers({}, [])


def doubling_text(levels: int) -> str:
    return (
        'a0 = "xxxxxxxxxxxxxxxx";\n'
        + "".join(f'a{i} = "{{a{i - 1}}}{{a{i - 1}}}";\n' for i in range(1, levels + 1))
        + f'return "{{a{levels}}}" || 1;'
    )


def doubling_list(levels: int) -> str:
    return (
        'a0 = ["xxxxxxxxxxxxxxxx"];\n'
        + "".join(f'a{i} = ["{{a{i - 1}}}", "{{a{i - 1}}}"];\n' for i in range(1, levels + 1))
        + f'return {{"n": "{{a{levels}}}"}};'
    )


def laundered(levels: int) -> str:
    """Each level goes through a select, which builds a new list of the same parts."""
    lines = ['a0 = ["xxxxxxxxxxxxxxxx"];']
    for i in range(1, levels + 1):
        lines.append(f'b{i} = ["{{a{i - 1}}}", "{{a{i - 1}}}"];')
        lines.append(f"a{i} = select * from b{i} limit 2;")
    return "\n".join(lines) + f'\nreturn {{"n": "{{a{levels}}}"}};'


def projected(levels: int) -> str:
    lines = ['a0 = [{"x": "xxxxxxxxxxxxxxxx"}];']
    for i in range(1, levels + 1):
        lines.append(f'b{i} = [{{"x": "{{a{i - 1}}}"}}, {{"x": "{{a{i - 1}}}"}}];')
        lines.append(f"a{i} = select x as x from b{i};")
    return "\n".join(lines) + f'\nreturn {{"n": "{{a{levels}}}"}};'


@pytest.fixture
async def engine():
    built = Engine(config={})
    yield built
    await built.close()


@pytest.mark.parametrize("build", [doubling_text, doubling_list, laundered, projected])
async def test_a_value_that_doubles_itself_fails_early(engine, build):
    small = await engine.execute(build(3), trust=CALLER)  # a few doublings are fine
    assert small.value is not None
    started = time.perf_counter()
    with pytest.raises(ScriptBudgetExceeded) as refused:
        await engine.execute(build(40), trust=CALLER)
    assert type(refused.value).__name__ == "ScriptBudgetExceeded" and refused.value.status == 400
    assert "scriptBudget" in refused.value.message
    assert time.perf_counter() - started < 2


async def test_an_in_memory_filter_or_join_over_big_lists_is_bounded(engine):
    big = "x = [" + ",".join("[]" for _ in range(5000)) + "];\n"
    for script in (
        big + 'return select * from x where length in ("{x}");',
        big + 'y = "{x}"; return select * from x as a, y as b where a.length = b.length;',
    ):
        started = time.perf_counter()
        with pytest.raises(ScriptBudgetExceeded) as refused:
            await engine.execute(script, trust=CALLER)
        assert type(refused.value).__name__ == "ScriptBudgetExceeded", refused.value
        assert time.perf_counter() - started < 2


async def test_a_path_over_shared_parts_is_bounded(engine):
    """``..`` over a value whose parts a script shared visits every copy: capped."""
    lines = ["a0 = [1];"] + [f'a{i} = ["{{a{i - 1}}}", "{{a{i - 1}}}"];' for i in range(1, 22)]
    script = "\n".join(lines) + '\nreturn "{a21..*.length}";'
    started = time.perf_counter()
    with pytest.raises(ScriptBudgetExceeded) as refused:
        await engine.execute(script, trust=CALLER)
    assert type(refused.value).__name__ in ("PathTooCostly", "ScriptBudgetExceeded"), refused.value
    assert refused.value.status == 400 and time.perf_counter() - started < 3
    assert MAX_VISITS >= 100_000  # a legit search over a large answer still fits


@pytest.mark.parametrize(
    "script",
    [
        'x = [1, 2, 3]; return "{x[(1e999)]}";',
        'x = [1, 2, 3]; return "{x[?(@ + 1e999 > 0)]}";',
        'x = [{"a": "nan"}]; return "{x[?(@.a - 1 > 0)]}";',
        'x = [[1]]; return "{x[?(@[1e999])]}";',
        'x = [1]; return "{x[?(@ < ' + "1" * 5000 + ')]}";',
        'x = [1]; return "{x[?(' + "(" * 300 + "@" + ")" * 300 + ')]}";',
        'x = [1]; return "{x[?(' + "!" * 3000 + '@)]}";',
    ],
)
async def test_path_filters_never_fail_untyped(engine, script):
    """An answer (the filter matched nothing, or it is not a filter) or a typed 4xx:
    never an OverflowError, ValueError or RecursionError as an internal error."""
    try:
        await engine.execute(script, trust=CALLER)
    except QlError as error:
        assert error.status < 500, error.message


async def test_the_compile_cache_is_bounded_by_text_not_only_by_count(engine):
    script = "return [" + ",".join(["1"] * 30_000) + "];"
    for n in range(MAX_CACHED_CHARS // len(script) + 5):
        engine.compile(f"x = {n};" + script)
    assert engine._cache_chars <= MAX_CACHED_CHARS
