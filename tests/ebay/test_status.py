"""eBay's Ack=Failure (HTTP 200) as a statement error with eBay's errors."""

import pytest

from qlgate.ebay.status import EbayError, check_ack
from qlgate.http.xml import xml_to_json

TRADING_FAILURE = """<AddItemResponse xmlns="urn:ebay:apis:eBLBaseComponents"><Ack>Failure</Ack>
<Errors><ShortMessage>Input data is invalid.</ShortMessage><LongMessage>Input data for tag &lt;Item.Currency&gt;
is invalid or missing.</LongMessage><ErrorCode>37</ErrorCode><SeverityCode>Error</SeverityCode>
<ErrorClassification>RequestError</ErrorClassification></Errors></AddItemResponse>"""


def test_trading_failure_carries_codes_and_messages():
    with pytest.raises(EbayError) as info:
        check_ack("ebay.trading.AddItem", 200, xml_to_json(TRADING_FAILURE))
    error = info.value
    assert error.status == 400 and "37 Error: Input data for tag <Item.Currency>" in error.message
    assert error.details["ebay_errors"][0]["code"] == 37


def test_warning_and_success_stay_successes():
    assert check_ack("t", 200, {"GetItemResponse": {"Ack": "Warning"}}) is None
    assert check_ack("t", 200, {"Ack": "Success"}) is None


def test_finding_json_failure_and_framework_errors():
    body = {
        "findItemsByKeywordsResponse": [
            {
                "ack": ["Failure"],
                "errorMessage": [
                    {
                        "error": [
                            {
                                "errorId": ["2"],
                                "severity": ["Error"],
                                "category": ["Request"],
                                "message": ["Keywords value required."],
                            }
                        ]
                    }
                ],
            }
        ]
    }
    with pytest.raises(EbayError, match="2 Error: Keywords value required"):
        check_ack("f", 200, body)
    framework = {
        "errorMessage": {"error": {"errorId": 11002, "category": "System", "message": "Authentication failed"}}
    }
    with pytest.raises(EbayError) as info:
        check_ack("f", 500, framework)
    assert info.value.status == 502
