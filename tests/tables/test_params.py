"""The parameter view's precedence (spec §10.1)."""

from qlgate.lang.templates import interpolate, parse_template
from qlgate.tables.params import ParamView, lookup_dotted, nest_dotted
from qlgate.values import MISSING


def view(**layers):
    return ParamView(
        statement=layers.get("statement", {}),
        variables=layers.get("variables", {}),
        query=layers.get("query"),
        headers=layers.get("headers"),
        defaults=layers.get("defaults"),
        config={"site": "EBAY-US"},
        resolve_default=lambda raw, v: interpolate(raw, v.lookup_below_defaults) if hasattr(raw, "parts") else raw,
    )


def test_statement_beats_variables_beats_request_beats_defaults():
    v = view(statement={"a": 1}, variables={"a": 2, "b": 2}, query={"b": 3, "c": 3}, defaults={"c": 4, "d": 4})
    assert [v.lookup(k) for k in "abcd"] == [1, 2, 3, 4]


def test_missing_does_not_hide_lower_layers_but_null_does():
    v = view(statement={"a": MISSING, "b": None}, variables={"a": "var", "b": "var"})
    assert v.lookup("a") == "var" and v.lookup("b") is None


def test_defaults_resolve_tokens_against_the_other_layers_and_config():
    v = view(variables={"user": "sam"}, defaults={"who": parse_template("{user}@{config.site}")})
    assert v.lookup("who") == "sam@EBAY-US"


def test_patch_writes_land_in_the_private_layer():
    v = view(statement={"a": 1})
    v["a"] = 9
    assert v["a"] == 9 and v.statement["a"] == 1


def test_dotted_names():
    v = view(statement={"paging.size": 5, "Offer": {"Bid": [{"Max": 7}]}})
    assert lookup_dotted(v, "paging.size") == 5
    assert lookup_dotted(v, "Offer.Bid.Max") == 7
    assert nest_dotted({"Offer.MaxBid": 3, "Offer.Quantity": 1}) == {
        "Offer.MaxBid": 3,
        "Offer.Quantity": 1,
        "Offer": {"MaxBid": 3, "Quantity": 1},
    }
