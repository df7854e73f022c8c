"""Which API type a table's calls count against: config ``limits.types``, else the
table name without its last part."""

import pytest

from qlgate.errors import ConfigError
from qlgate.limits import ApiTypes


def test_a_table_counts_against_its_name_without_the_last_part_by_default():
    types = ApiTypes()
    assert types.of("ebay.trading.AddToWatchList") == "ebay.trading"
    assert types.of("ebay.buy.browse.search") == "ebay.buy.browse"
    assert types.of("items") == "items"


def test_the_longest_configured_prefix_wins():
    types = ApiTypes.from_config(
        {"limits": {"types": {"ebay.buy": "ebay.buy", "ebay.buy.browse": "ebay.browse", "weather": "weather"}}}
    )
    assert types.of("ebay.buy.browse.search") == "ebay.browse"
    assert types.of("ebay.buy.order.getPurchaseOrder") == "ebay.buy"
    assert types.of("weather.forecast.daily") == "weather"
    assert types.of("weatherman.x") == "weatherman"  # a prefix ends at a dot
    assert types.of("ebay.trading.GetItem") == "ebay.trading"


@pytest.mark.parametrize(
    "config, message",
    [
        ({"limits": []}, "config limits: must be object, not array"),
        ({"limits": {"types": "ebay"}}, "config limits.types: must be object, not string"),
        ({"limits": {"types": {"ebay.buy": "a/b"}}}, "limits.types.ebay.buy"),
        ({"limits": {"types": {"ebay.buy": 3}}}, r'config limits.types\["ebay.buy"\]: must be string, not integer'),
    ],
)
def test_a_bad_mapping_is_a_config_error_naming_it(config, message):
    with pytest.raises(ConfigError, match=message):
        ApiTypes.from_config(config)
