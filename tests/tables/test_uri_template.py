"""URI templates: encoding, optional and required tokens, multi-values and forks."""

import pytest

from qlgate.errors import MissingParameter, StatementError
from qlgate.lang.templates import parse_template
from qlgate.tables.params import ParamView
from qlgate.tables.uri_template import expand


def uris(template: str, **params):
    view = ParamView(statement=params, variables={})
    return [e.uri for e in expand(parse_template(template), view)]


def test_scalars_are_encoded_like_encodeURIComponent():
    assert uris("/s?q={q}&p={p}", q="a b&c/é!*'()", p=0) == ["/s?q=a%20b%26c%2F%C3%A9!*'()&p=0"]


def test_optional_tokens_expand_to_nothing():
    assert uris("/s?q={q}&e={e}", e="") == ["/s?q=&e="]


def test_required_token_missing_is_an_error():
    with pytest.raises(MissingParameter, match="'q'"):
        uris("/s?q={^q}", q=[])


def test_a_list_forks_one_uri_per_value_in_order():
    assert uris("/i/{id}?x={x}", id=["b", "a", "b"], x=1) == ["/i/b?x=1", "/i/a?x=1", "/i/b?x=1"]


def test_multi_valued_tokens_join_or_batch():
    assert uris("/i?ids={|ids}", ids=[3, 1]) == ["/i?ids=3%2C1"]
    assert uris("/i?ids={2|ids}", ids=["c", "a", "b", "a"]) == ["/i?ids=a%2Cb", "/i?ids=c"]


def test_only_one_token_may_fork():
    with pytest.raises(StatementError, match="only one may fan out"):
        uris("/{a}/{b}", a=[1, 2], b=[3, 4])


def test_unencoded_token_and_objects():
    assert uris("{`base}/x?o={o}", base="http://h:1", o={"k": 1}) == ["http://h:1/x?o=%7B%22k%22%3A1%7D"]


def test_fork_binding_names_the_value():
    view = ParamView(statement={"id": [1, 2]}, variables={})
    assert [e.binding for e in expand(parse_template("/{id}"), view)] == [{"id": 1}, {"id": 2}]
