"""What ``lift`` cuts out of a script (only plain ``where`` operands) and what it
leaves in the shape, where a value can change how the script parses or plans."""

import pytest

from qlgate.lang.lift import lift

BASE = 'select * from t where q = "x1"'


def key(script: str) -> str | None:
    lifted = lift(script)
    return lifted.key if lifted else None


def test_operands_of_equal_and_in_are_lifted():
    lifted = lift("select * from t where a = \"x\" and b in 'y' and c = 12 and d in (\"p\", 3, 'q')")
    assert lifted is not None
    assert lifted.values == ("x", "y", "12", "p", "3", "q")
    assert lifted.kinds == "\"'n\"n'"
    assert key("select * from t where a = \"other\" and b in 'z' and c = -7 and d in (\"\", 0, 'r')") == lifted.key


def test_spans_point_at_the_literals_quotes_included():
    script = 'select * from t where q = "x1" and n = 42'
    lifted = lift(script)
    assert lifted is not None
    assert [script[a:b] for a, b in lifted.spans] == ['"x1"', "42"]


@pytest.mark.parametrize(
    ("script", "kept"),
    [
        ('select * from t where q = "{x}"', "{x}"),  # an interpolation token is code
        ('select * from t where q = "a}"', "a}"),
        ('select * from t where q = "a\\"b"', "a\\"),  # an escape
        ('select * from t where q = "two\nlines"', "two\nlines"),  # a line break moves every later line
        ("select * from t where q = 1.5", "1.5"),  # not an integer
        ("select * from t where q = 1e3", "1e3"),
        ("select * from t where q = +3", "+3"),
        ("select * from t where q = 1234567890123456", "1234567890123456"),  # 16 digits
        ('select * from t where q = "x".y', "x"),  # part of a longer token
        ("select * from t limit 10 offset 5", "10"),  # counts shape the plan
        ('x = "json value"', "json value"),  # a JSON value, not an operand
        ("create table t on select get from 'http://h/{q}' using defaults q = \"d\"", "d"),  # a table's clause
        ('return {} via route "/r" using method get using defaults q = "d"', "d"),  # a route's clause
        ('x = u.f("arg")', "arg"),  # a UDF's argument
    ],
)
def test_what_stays_in_the_shape(script, kept):
    lifted = lift(script)
    assert lifted is None or kept not in lifted.values
    assert lifted is None or kept in lifted.key


def test_a_nul_in_the_text_keys_by_the_text():
    assert lift('select * from t where q = "x"\x00') is None


def test_a_limit_is_part_of_the_key():
    assert key(BASE + " limit 1") != key(BASE + " limit 2")


def test_quote_kind_is_part_of_the_key():
    assert key("select * from t where q = 'x'") != key('select * from t where q = "x"')


def test_a_subquery_is_not_a_list():
    lifted = lift('select * from t where id in (select id from u where k = "v")')
    assert lifted is not None and lifted.values == ("v",)


def test_a_list_may_mix_paths_and_literals():
    lifted = lift("select * from t where id in (a.id, 7, b[0], 'x')")
    assert lifted is not None and lifted.values == ("7", "x")
    assert "a.id" in lifted.key and "b[0]" in lifted.key
