"""Request XML from dotted columns, in schema order."""

from lxml import etree

from qlgate.ebay.requests import CallSchema, _field, request_xml, unknown_columns

SCHEMA = CallSchema(
    "PlaceOffer",
    "PlaceOfferRequest",
    "urn:ebay:apis:eBLBaseComponents",
    tuple(
        _field(f)
        for f in [
            "RequesterCredentials",
            "RequesterCredentials.eBayAuthToken",
            "ErrorLanguage",
            "Offer",
            "Offer.Action",
            "Offer.MaxBid",
            "Offer.MaxBid.@currencyID",
            "Offer.Quantity",
            "ItemID",
            "Item",
            "VariationSpecifics",
            "VariationSpecifics.NameValueList",
            "VariationSpecifics.NameValueList.Name",
            "VariationSpecifics.NameValueList.Value",
        ]
    ),
)


def body(params):
    text = request_xml(SCHEMA, params)
    assert text.startswith('<?xml version="1.0" encoding="utf-8"?>\n')
    etree.fromstring(text.encode())  # well formed
    return text.split("\n", 1)[1]


def test_schema_order_nesting_and_attributes_whatever_the_column_order():
    xml = body(
        {
            "ItemID": "1",
            "Offer.Quantity": 1,
            "Offer.MaxBid": "20.00",
            "Offer.MaxBid.currencyID": "USD",
            "Offer.Action": "Bid",
            "RequesterCredentials.eBayAuthToken": "T",
        }
    )
    assert xml == (
        '<PlaceOfferRequest xmlns="urn:ebay:apis:eBLBaseComponents"><RequesterCredentials>'
        "<eBayAuthToken>T</eBayAuthToken></RequesterCredentials><Offer><Action>Bid</Action>"
        '<MaxBid currencyID="USD">20.00</MaxBid><Quantity>1</Quantity></Offer><ItemID>1</ItemID>'
        "</PlaceOfferRequest>"
    )


def test_empty_values_produce_no_element_and_lists_repeat():
    xml = body({"ItemID": ["1", "", None, 2], "ErrorLanguage": "", "Offer.Action": None})
    assert "<ErrorLanguage" not in xml and "<Offer" not in xml
    assert "<ItemID>1</ItemID><ItemID>2</ItemID>" in xml


def test_nested_objects_and_lists_of_objects():
    xml = body(
        {
            "Offer": {"Action": "Bid", "MaxBid": {"$t": "5", "currencyID": "EUR"}},
            "VariationSpecifics": {"NameValueList": [{"Name": "Color", "Value": ["Red", "Blue"]}]},
        }
    )
    assert '<Offer><Action>Bid</Action><MaxBid currencyID="EUR">5</MaxBid></Offer>' in xml
    assert "<NameValueList><Name>Color</Name><Value>Red</Value><Value>Blue</Value></NameValueList>" in xml


def test_unexpanded_types_and_escaping():
    xml = body({"Item": {"Title": "Tom & Jerry <1>", "StartPrice": {"@currencyID": "USD", "$t": 1}}})
    assert '<Item><Title>Tom &amp; Jerry &lt;1&gt;</Title><StartPrice currencyID="USD">1</StartPrice></Item>' in xml


def test_unknown_columns_are_reported():
    assert unknown_columns(SCHEMA, ["ItemID", "Offer.MaxBid", "Ofer.MaxBid", "limit"], {"limit"}) == ["Ofer.MaxBid"]
