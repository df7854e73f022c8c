"""JavaScript semantics where scripts observe them."""

import pytest

from qlgate.values import MISSING, dump_json, format_number, loose_equals, truthy


@pytest.mark.parametrize(
    "value, expected",
    [
        ({}, True),
        ([], True),
        ("0", True),
        (0, False),
        ("", False),
        (None, False),
        (MISSING, False),
        (float("nan"), False),
        (False, False),
    ],
)
def test_truthiness(value, expected):
    assert truthy(value) is expected


@pytest.mark.parametrize(
    "a, b, expected",
    [
        (1, "1", True),
        ("1.0", 1, True),
        (True, 1, True),
        (None, MISSING, True),
        (None, 0, False),
        ("a", "A", False),
        ({}, {}, False),
        ("", 0, True),
    ],
)
def test_loose_equality(a, b, expected):
    assert loose_equals(a, b) is expected


@pytest.mark.parametrize(
    "n, text",
    [
        (10, "10"),
        (10.0, "10"),
        (1.5, "1.5"),
        (1e21, "1e+21"),
        (1e-7, "1e-7"),
        (0.000123, "0.000123"),
        (2**70, "1180591620717411303424"),
    ],
)
def test_number_formatting(n, text):
    assert format_number(n) == text


def test_missing_members_are_omitted_and_missing_elements_are_null():
    assert dump_json({"a": MISSING, "b": [1, MISSING]}) == '{"b":[1,null]}'
