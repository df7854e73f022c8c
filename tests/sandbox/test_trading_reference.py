"""The emulator's Trading calls for reference data and a user's own settings
(``trading_reference.py``), which ql.io's eBay tree has tables for: each answers
success the way a table reads it, and fails the way eBay fails it."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from .trading_harness import BUYER_ID, SELLER, SELLER_ID, Api

CASES: dict[str, Callable[[Api], None]] = {}


def case(*calls: str) -> Callable[[Callable[[Api], None]], Callable[[Api], None]]:
    def register(check: Callable[[Api], None]) -> Callable[[Api], None]:
        for call in calls:
            CASES[call] = check
        return check

    return register


@case("GetCharities")
def _(api: Api) -> None:
    charities = api.ok("GetCharities", "<Query>shelter</Query>")["Charity"]
    charity = charities[0] if isinstance(charities, list) else charities
    assert charity["Name"] == "Sample Animal Shelter"
    assert api.fails("GetCharities", "<CharityID>999</CharityID>") == 21916251
    assert api.fails("GetCharities", token="NOT-A-TOKEN") == 931


@case("GetVeROReasonCodeDetails")
def _(api: Api) -> None:
    detail = api.ok("GetVeROReasonCodeDetails", "<ReasonCodeID>2</ReasonCodeID>")["VeROReasonCodeDetails"]
    assert "Copyright" in detail["VeROSiteDetail"]["ReasonCodeDetail"]["BriefText"]
    assert api.fails("GetVeROReasonCodeDetails", "<ReasonCodeID>99</ReasonCodeID>") == 21916623


@case("GetChallengeToken", "GetStoreOptions", "GetDescriptionTemplates", "GetAccount", "GetSellerDashboard")
def _(api: Api) -> None:
    assert len(api.ok("GetChallengeToken")["ChallengeToken"]) == 32
    assert api.ok("GetStoreOptions", "", SELLER)["MaxCategories"] == 300
    assert len(api.ok("GetDescriptionTemplates", "", SELLER)["DescriptionTemplate"]) == 2
    assert api.ok("GetAccount", "", SELLER)["AccountSummary"]["AccountState"] == "Active"
    assert api.ok("GetSellerDashboard", "", SELLER)["SellerAccount"]["Status"] == "Current"
    for call in ("GetChallengeToken", "GetStoreOptions", "GetDescriptionTemplates", "GetAccount", "GetSellerDashboard"):
        assert api.fails(call, token="NOT-A-TOKEN") == 931


@case("GetPopularKeywords", "GetContextualKeywords")
def _(api: Api) -> None:
    api.auction("Blue Kettle")
    api.auction("Blue Teapot")
    popular = api.ok("GetPopularKeywords", "<CategoryID>20625</CategoryID>")["CategoryArray"]["Category"]
    assert popular["Keywords"].split(";")[0] == "blue"
    found = api.ok("GetContextualKeywords", "<URL>http://blog.example/blue-kettle</URL>")["ContextSearchAsset"]
    assert "kettle" in [asset["Keyword"] for asset in (found if isinstance(found, list) else [found])]
    assert api.fails("GetContextualKeywords") == 37


@case("GetUserContactDetails")
def _(api: Api) -> None:
    item = api.auction()
    ask = f"<ItemID>{item}</ItemID><ContactID>{BUYER_ID}</ContactID><RequesterID>{SELLER_ID}</RequesterID>"
    assert api.ok("GetUserContactDetails", ask, SELLER)["UserID"] == BUYER_ID
    nobody = f"<ItemID>{item}</ItemID><ContactID>nobody_here</ContactID><RequesterID>{SELLER_ID}</RequesterID>"
    assert api.fails("GetUserContactDetails", nobody, SELLER) == 21916286
    assert api.fails("GetUserContactDetails", f"<ItemID>{item}</ItemID>", SELLER) == 37


@case("SetTaxTable", "GetTaxTable")
def _(api: Api) -> None:
    rows = (
        "<TaxTable><TaxJurisdiction><JurisdictionID>CA</JurisdictionID><SalesTaxPercent>8.25</SalesTaxPercent>"
        "<ShippingIncludedInTax>true</ShippingIncludedInTax></TaxJurisdiction></TaxTable>"
    )
    api.ok("SetTaxTable", rows, SELLER)
    got = api.ok("GetTaxTable", "", SELLER)["TaxTable"]["TaxJurisdiction"]
    assert got["JurisdictionID"] == "CA" and float(got["SalesTaxPercent"]) == 8.25
    assert "TaxJurisdiction" not in (api.ok("GetTaxTable")["TaxTable"] or {})  # the buyer's own, empty
    assert api.fails("SetTaxTable", "", SELLER) == 37


@pytest.mark.parametrize("call", sorted(CASES))
def test_call_succeeds_and_fails_like_ebay(call):
    CASES[call](Api())
