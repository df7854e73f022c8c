"""The filter language of paths (``[?(@.price > 2)]``, ``[(@.length-1)]``): what each
operator means on JSON values, and the errors a bad filter gives. It mirrors the
JavaScript ql.io ran, but is a closed language: nothing in a filter can run code."""

from __future__ import annotations

import re

import pytest

from qlgate.lang.filters import MAX_DEPTH, FilterSyntaxError, parse_filter
from qlgate.values import MISSING

ITEM = {"price": 5, "title": "Boots", "tags": ["a", "b"], "seller": {"name": "ann", "stars": "4"}, "n": None}


def value_of(text: str, value=ITEM):
    return parse_filter(text).evaluate(value)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("@.price", 5),
        ("@.seller.name", "ann"),
        ("@['title']", "Boots"),
        ("@.tags[1]", "b"),
        ("@.tags.length", 2),
        ("@.title.length", 5),  # strings have a length too
        ("@.tags[5]", MISSING),  # out of range
        ("@.absent.deeper", MISSING),  # a missing step stays missing, never an error
        ("@.price + 1", 6),
        ("@.price - 0.5", 4.5),
        ("@.title + '!'", "Boots!"),  # + with a string concatenates
        ("@.price + '1'", "51"),
        ("-@.price", -5),
        ("@.tags[@.tags.length - 1]", "b"),  # an index may be computed
        ("(1 + 2) - 4", -1),
        ("true", True),
        ("null", None),
        ("'x'", "x"),
        ("2.5e1", 25.0),
    ],
)
def test_values(text, expected):
    assert value_of(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("@.price == 5", True),
        ("@.price == '5'", True),  # == converts like JavaScript
        ("@.price === '5'", False),  # === does not
        ("@.price === 5.0", True),  # ...but an int and a float are one number
        ("@.price !== 5", False),
        ("@.price != 4", True),
        ("@.seller.stars > 3", True),  # a numeric string compares as a number
        ("@.title < 'C'", True),  # two strings compare as strings
        ("@.title >= 'Boots'", True),
        ("@.price <= 5 && @.price > 4", True),
        ("@.price < 1 || @.title == 'Boots'", True),
        ("!@.n", True),  # null is false
        ("!!@.tags", True),  # an array is true, even an empty one would be
        ("@.absent == null", True),  # missing equals null
        ("@.tags == @.tags", True),  # an array equals only itself
        ("@.seller > 1", False),  # an object is no number: every comparison is false
    ],
)
def test_conditions(text, expected):
    assert parse_filter(text).test(ITEM) is expected


def test_and_and_or_answer_with_an_operand_as_in_javascript():
    assert value_of("@.n || @.title") == "Boots"
    assert value_of("@.price && @.title") == "Boots"
    assert value_of("@.n && @.title") is None


def test_arithmetic_on_something_that_is_not_a_number_is_nan_and_nan_is_false():
    expr = parse_filter("@.seller - 1")
    assert expr.evaluate(ITEM) != expr.evaluate(ITEM)  # NaN
    assert expr.test(ITEM) is False


def test_a_filter_keeps_its_text():
    assert parse_filter("@.price > 2").text == "@.price > 2"


@pytest.mark.parametrize(
    "text, message",
    [
        ("@.price >", "unexpected end of filter"),
        ("(@.price > 2", "unexpected end of filter"),
        ("@.tags[0", "unexpected end of filter"),
        ("@.price > 2)", "unexpected ')'"),
        ("@.price # 2", "unexpected ' # 2'"),
        ("alert(1)", "unexpected 'alert'"),  # a name is not a value: there are no variables or functions
        ("(" * (MAX_DEPTH + 1) + "1" + ")" * (MAX_DEPTH + 1), f"nested more than {MAX_DEPTH} deep"),
        ("!" * (MAX_DEPTH + 1) + "@", f"nested more than {MAX_DEPTH} deep"),
        ("9" * 5000, "in filter is too long"),
    ],
)
def test_bad_filters_say_what_is_wrong(text, message):
    with pytest.raises(FilterSyntaxError, match=re.escape(message)):
        parse_filter(text)
