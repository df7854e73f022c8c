"""A shape's template rebuilds exactly the AST the parser makes, for any values of
its lifted literals; and refuses shapes whose literals are not all plain operands."""

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from qlgate.errors import QlSyntaxError
from qlgate.lang.lift import lift
from qlgate.lang.parser import parse
from qlgate.lang.reuse import NotReusable, ShapeTemplate

SHAPES = [
    "select id, title from details where id in (select id from finditems where q = {0}) and ms = {1}",
    "a = select * from t where q = {0} and n = {1}; b = select * from u where z in ({0}, {1}) limit 3\n"
    "return select x from b where y = {1}",
    'r = select * from t where q = {0};\n-- the answer\nreturn {{"r": "{{r}}"}} via route \'/x/{{q}}\' using method get',
    "create table own on select get from 'http://h/{{q}}'\nreturn select a.b as c from own where q = {0} and k = {1}",
    "if (c) {{ x = select * from t where q = {0} }} else {{ x = select * from t where q = {1} }} return x",
    "delete from t where id = {0}; return select * from t where id = {1} timeout 10",
]
TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)
# mostly text that may be lifted, so that most examples share; some anything at all
PLAIN = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\"'\\{}\u2028\u2029\x85"),
    max_size=12,
)


def literal(value: str | int, quote: str) -> str:
    return str(value) if isinstance(value, int) else quote + value + quote


VALUES = st.one_of(PLAIN, PLAIN, TEXT, st.integers(-(10**15), 10**15), st.integers())
QUOTES = st.sampled_from(["'", '"'])


def template_for(shape: str, first: tuple, second: tuple) -> tuple[ShapeTemplate, str]:
    script = shape.format(literal(*first), literal(*second))
    lifted = lift(script)
    assert lifted is not None
    return ShapeTemplate.learn(lifted, script, parse(script), parse), script


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(SHAPES), VALUES, QUOTES, VALUES, QUOTES)
def test_a_shared_parse_is_the_parse(shape, a, qa, b, qb):
    """Every script whose shape was learned from another builds to the AST ``parse``
    makes of it: values, positions after them, statement texts, the source."""
    script = shape.format(literal(a, qa), literal(b, qb))
    try:
        expected = parse(script)
    except QlSyntaxError:
        return  # not a script (an unterminated quote…): never shared, lift or not
    lifted = lift(script)
    if lifted is None:
        return
    first = shape.format(*(literal(5 if isinstance(v, int) else "x1", q) for v, q in ((a, qa), (b, qb))))
    first_lifted = lift(first)
    if first_lifted is None or first_lifted.key != lifted.key:
        return  # this value is not lifted: the script keys by more of its text
    template = ShapeTemplate.learn(first_lifted, first, parse(first), parse)
    event("built from the shape")
    assert template.build(lifted, script)[0] == expected


def test_columns_after_a_longer_value_move():
    template, _ = template_for(SHAPES[1], ("x", '"'), (1, ""))
    script = SHAPES[1].format('"a much longer value"', "123456")
    built, _ = template.build(lift(script), script)
    assert built == parse(script)
    second = built.items[1]
    assert second.pos.column == script.index("b = select") + 1
    assert second.text == script[script.index("b = select") : script.index("limit 3") + 7]


def test_a_literal_in_a_create_table_clause_is_refused():
    script = 'create table t on select get from \'http://h/{q}\' using defaults q = "d"\nreturn select * from t where a = "x"'
    lifted = lift(script)
    assert lifted is not None
    # force the table's default to look liftable: the learner finds it outside an operand
    forced = lifted.__class__(
        lifted.key,
        ("d", "x"),
        ((script.index('"d"'), script.index('"d"') + 3), *lifted.spans),
        '""',
    )
    with pytest.raises(NotReusable):
        ShapeTemplate.learn(forced, script, parse(script), parse)


def test_a_literal_in_a_limit_is_refused():
    script = 'select * from t where a = "x" limit 5'
    lifted = lift(script)
    assert lifted is not None
    at = script.index("5")
    forced = lifted.__class__(lifted.key, ("x", "5"), (*lifted.spans, (at, at + 1)), '"n')
    with pytest.raises(NotReusable):
        ShapeTemplate.learn(forced, script, parse(script), parse)


def test_a_sentinel_that_does_not_parse_is_refused_not_raised():
    """Learning never fails a script that compiled: a shape it cannot learn is not shared."""
    script = 'select * from t where a = "x" limit 5'
    lifted = lift(script)
    assert lifted is not None
    at = script.index("5")
    forced = lifted.__class__(lifted.key, ("x", "5"), (*lifted.spans, (at, at + 1)), '""')
    with pytest.raises(NotReusable):
        ShapeTemplate.learn(forced, script, parse(script), parse)
