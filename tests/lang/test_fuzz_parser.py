"""Whatever text comes in, the parser answers with an AST or a QlSyntaxError."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qlgate.errors import QlSyntaxError
from qlgate.lang.parser import parse

SEEDS = [
    'itemid = select searchResult.item[0].itemId from finding.findItemsByKeywords where keywords = "camera";',
    'return insert into trading.AddToWatchList (ItemID) values ("{itemid}");',
    "create table t on select get from 'http://x/{^q}?n={20|ids}' using defaults a = 1 resultset 'a.b'",
    'if (a || !b) { x = {"k": [1, "{y}"]} } else { z = u.f(a, "b") } return x || z',
    "try { throw (e) } catch (e) { r = select a.b as c from v as a, w as b where a.id = b.id } ",
    "select * from t where id in (select id from u where k = 'v') limit 3 offset 1 timeout 20",
]
TOKENS = [
    "select",
    "from",
    "where",
    "in",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "'",
    '"',
    ",",
    ";",
    "=",
    "||",
    "&&",
    "!",
    "-- c\n",
    "/*",
    "*/",
    "return",
    "create table",
    "on select get from",
    "via route",
    "a.b",
    "{x}",
    "{^",
    "1e",
    "-",
    "..",
    "$",
    "\\",
    "\n",
    " ",
]


def check(text: str) -> None:
    try:
        parse(text)
    except QlSyntaxError as e:
        assert e.line is not None and e.line >= 1 and e.column is not None and e.column >= 1
        e.pretty()


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=200))
def test_random_text(text):
    check(text)


@settings(max_examples=600, deadline=None)
@given(
    st.sampled_from(SEEDS),
    st.lists(st.tuples(st.integers(0, 300), st.integers(0, 6), st.sampled_from(TOKENS)), max_size=6),
)
def test_mutated_scripts(seed, edits):
    text = seed
    for position, cut, token in edits:
        position %= len(text) + 1
        text = text[:position] + token + text[position + cut :]
    check(text)


def test_deep_nesting_is_a_syntax_error_not_a_crash():
    check("x = " + "[" * 5000 + "]" * 5000)
    check("if (" + "(" * 3000 + "a" + ")" * 3000 + ") { b = 1 }")
