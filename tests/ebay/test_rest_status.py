"""eBay's REST ``errors[]`` answer becomes a typed statement error; ``warnings[]``
on a success, and an error status without eBay's shape, are left alone."""

import pytest

from qlgate.ebay.rest_status import EbayRestError, check_status, errors_of

ERRORS = {
    "errors": [
        {
            "errorId": 12001,
            "domain": "API_BROWSE",
            "category": "REQUEST",
            "message": "Invalid q.",
            "longMessage": "The 'q' value is invalid.",
            "parameters": [{"name": "q", "value": ""}],
        },
        {"errorId": 12023, "domain": "API_BROWSE", "category": "REQUEST", "message": "Invalid limit."},
    ]
}


def test_an_error_status_with_errors_is_a_typed_error_with_status_errorid_and_message():
    with pytest.raises(EbayRestError) as caught:
        check_status("ebay.buy.browse.search", 400, ERRORS)
    error = caught.value
    assert error.status == 400 and error.details["upstream_status"] == 400
    assert error.details["errorId"] == 12001
    assert [e["errorId"] for e in error.details["ebay_errors"]] == [12001, 12023]
    assert "The 'q' value is invalid." in error.message and "12023" in error.message


def test_a_server_error_is_a_502():
    with pytest.raises(EbayRestError) as caught:
        check_status("t", 500, {"errors": [{"errorId": 12000, "category": "APPLICATION", "message": "boom"}]})
    assert caught.value.status == 502 and caught.value.details["upstream_status"] == 500


def test_warnings_on_success_and_bare_error_statuses_are_kept():
    assert check_status("t", 200, {"warnings": ERRORS["errors"], "itemSummaries": []}) is None
    assert check_status("t", 404, {"message": "no such thing"}) is None
    assert check_status("t", 401, "not json") is None
    assert errors_of({"errors": "odd"}) == []
