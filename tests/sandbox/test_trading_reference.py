"""The emulator's Trading calls for reference data, a user's own settings, the Store
and promotions (``trading_reference.py``, ``trading_promotions.py``, ``trading_sellertools.py``), which ql.io's
eBay tree has tables for: each answers success the way a table reads it, and fails
the way eBay fails it."""

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


@case("SetShippingDiscountProfiles", "GetShippingDiscountProfiles")
def _(api: Api) -> None:
    add = (
        "<ModifyActionCode>Add</ModifyActionCode><FlatShippingDiscount><DiscountProfile>"
        "<DiscountProfileName>Two for one</DiscountProfileName></DiscountProfile></FlatShippingDiscount>"
    )
    api.ok("SetShippingDiscountProfiles", add, SELLER)
    got = api.ok("GetShippingDiscountProfiles", "", SELLER)["FlatShippingDiscount"]["DiscountProfile"]
    assert got["DiscountProfileName"] == "Two for one"
    gone = "<ModifyActionCode>Delete</ModifyActionCode><FlatShippingDiscount><DiscountProfile><DiscountProfileID>9</DiscountProfileID></DiscountProfile></FlatShippingDiscount>"
    assert api.fails("SetShippingDiscountProfiles", gone, SELLER) == 21916760


@case("SetStoreCategories", "GetStoreCategoryUpdateStatus", "GetStoreCustomPage")
def _(api: Api) -> None:
    task = api.ok(
        "SetStoreCategories",
        "<Action>Add</Action><StoreCategories><CustomCategory><Name>Kettles</Name></CustomCategory></StoreCategories>",
        SELLER,
    )["TaskID"]
    assert api.ok("GetStoreCategoryUpdateStatus", f"<TaskID>{task}</TaskID>", SELLER)["Status"] == "Complete"
    assert api.fails("GetStoreCategoryUpdateStatus", "<TaskID>77</TaskID>", SELLER) == 13003
    assert api.fails("SetStoreCategories", "<Action>Add</Action>", SELLER) == 37
    assert api.ok("GetStoreCustomPage", "", SELLER)["CustomPageArray"]["CustomPage"]["Name"] == "About us"
    assert api.fails("GetStoreCustomPage", "<PageID>5</PageID>", SELLER) == 13011


@case("SetPromotionalSale", "GetPromotionalSaleDetails", "SetPromotionalSaleListings")
def _(api: Api) -> None:
    item = api.auction()
    sale = api.ok(
        "SetPromotionalSale",
        "<Action>Add</Action><PromotionalSaleDetails><PromotionalSaleName>Spring</PromotionalSaleName>"
        "<DiscountType>Percentage</DiscountType><DiscountValue>10</DiscountValue></PromotionalSaleDetails>",
        SELLER,
    )["PromotionalSaleID"]
    listing = f"<PromotionalSaleID>{sale}</PromotionalSaleID><Action>Add</Action><PromotionalSaleItemIDArray><ItemID>{item}</ItemID></PromotionalSaleItemIDArray>"
    api.ok("SetPromotionalSaleListings", listing, SELLER)
    details = api.ok("GetPromotionalSaleDetails", f"<PromotionalSaleID>{sale}</PromotionalSaleID>", SELLER)
    shown = details["PromotionalSaleDetails"]["PromotionalSale"]
    assert shown["PromotionalSaleName"] == "Spring" and str(shown["PromotionalSaleItemIDArray"]["ItemID"]) == item
    assert api.fails("GetPromotionalSaleDetails", f"<PromotionalSaleID>{sale}</PromotionalSaleID>") == 219266
    assert api.fails("SetPromotionalSaleListings", listing) == 219266  # the buyer's: not theirs


@case("GetSellerPayments", "GetCategoryMappings", "GetVeROReportStatus")
def _(api: Api) -> None:
    assert api.ok("GetSellerPayments", "<PaymentStatus>Paid</PaymentStatus>", SELLER)["PaginationResult"]
    assert api.fails("GetSellerPayments", "", SELLER) == 37
    assert api.ok("GetCategoryMappings", "", SELLER)["CategoryVersion"] == 1
    assert api.ok("GetVeROReportStatus", "", SELLER)["Ack"] == "Success"  # no report filed: nothing to list
    assert api.fails("GetVeROReportStatus", "<VeROReportPacketID>5</VeROReportPacketID>", SELLER) == 21916600


@case("GetWantItNowSearchResults", "GetWantItNowPost")
def _(api: Api) -> None:
    found = api.ok("GetWantItNowSearchResults", "<Query>kettle</Query>")["WantItNowPostArray"]["WantItNowPost"]
    assert found["PostID"] == 5001
    assert api.fails("GetWantItNowSearchResults") == 37
    assert api.ok("GetWantItNowPost", "<PostID>5002</PostID>")["WantItNowPost"]["Title"].startswith("Wanted")
    assert api.fails("GetWantItNowPost", "<PostID>1</PostID>") == 21916900


@case("GetAdFormatLeads", "GetPromotionRules")
def _(api: Api) -> None:
    item = api.auction()
    assert api.ok("GetAdFormatLeads", f"<ItemID>{item}</ItemID>", SELLER)["AdFormatLeadCount"] == 0
    assert api.fails("GetAdFormatLeads", f"<ItemID>{item}</ItemID>") == 17  # not the buyer's item
    assert api.ok("GetPromotionRules", f"<ItemID>{item}</ItemID>", SELLER)["Ack"] == "Success"
    assert api.fails("GetPromotionRules", "", SELLER) == 37


@case("GetCrossPromotions", "GetItemRecommendations")
def _(api: Api) -> None:
    first, second = api.auction("Blue Kettle"), api.auction("Red Kettle")
    promo = api.ok("GetCrossPromotions", f"<ItemID>{first}</ItemID><PromotionMethod>CrossSell</PromotionMethod>")
    promoted = promo["CrossPromotion"]["PromotedItem"]
    assert str(second) in [str(p["ItemID"]) for p in (promoted if isinstance(promoted, list) else [promoted])]
    assert api.fails("GetCrossPromotions", f"<ItemID>{first}</ItemID>") == 37
    container = f"<GetRecommendationsRequestContainer><Item><ItemID>{first}</ItemID></Item></GetRecommendationsRequestContainer>"
    assert api.ok("GetItemRecommendations", container)["GetRecommendationsResponseContainer"]["SIFFTASRecommendations"]
    assert api.fails("GetItemRecommendations") == 37


@case("IssueRefund")
def _(api: Api) -> None:
    sale = api.sale()
    refund = (
        f"<ItemID>{sale['item']}</ItemID><TransactionID>{sale['transaction']}</TransactionID>"
        "<RefundReason>Other</RefundReason><RefundType>Full</RefundType><RefundAmount>20.00</RefundAmount>"
    )
    total = api.ok("IssueRefund", refund, SELLER)["TotalRefundToBuyer"]
    assert total == {"currencyID": "USD", "$t": 20.0}
    assert api.fails("IssueRefund", refund) == 21916627  # the buyer cannot refund themselves
    assert api.fails("IssueRefund", "<RefundType>Full</RefundType>", SELLER) == 37


@case("SetPictureManagerDetails", "GetAttributesCS", "GetAttributesXSL", "GetCategory2CS")
def _(api: Api) -> None:
    api.ok(
        "SetPictureManagerDetails",
        "<Action>Add</Action><PictureManagerDetails><Folder/></PictureManagerDetails>",
        SELLER,
    )
    assert (
        api.fails(
            "SetPictureManagerDetails",
            "<Action>Fly</Action><PictureManagerDetails><Folder/></PictureManagerDetails>",
            SELLER,
        )
        == 37
    )
    assert api.ok("GetAttributesCS")["AttributeSystemVersion"] == 1
    assert api.ok("GetAttributesXSL")["XSLFile"]["FileName"] == "syi_attributes.xsl"
    assert api.ok("GetCategory2CS")["AttributeSystemVersion"] == 1
    assert api.fails("GetCategory2CS", "<CategoryID>424242</CategoryID>") == 87


@pytest.mark.parametrize("call", sorted(CASES))
def test_call_succeeds_and_fails_like_ebay(call):
    CASES[call](Api())


def test_white_space_before_the_xml_declaration_is_taken_as_ebay_took_it():
    # ql.io's EJS templates open with code blocks, so their line breaks come before <?xml …?>
    body = (
        '\n\n\n<?xml version="1.0" encoding="utf-8"?>\n<GetAccountRequest xmlns="urn:ebay:apis:eBLBaseComponents">'
        f"<RequesterCredentials><eBayAuthToken>{SELLER}</eBayAuthToken></RequesterCredentials></GetAccountRequest>"
    )
    assert Api().ok("GetAccount", body=body, token=None)["AccountSummary"]["AccountState"] == "Active"


def test_a_finding_search_reads_another_searchs_request_body_as_ebay_did():
    # ql.io's findItemsByCategory sends its findItemsAdvanced template; the header names the search
    import json

    from qlgate_ebay_emulator.finding import Finding

    finding = Finding(Api().market)
    app = next(iter(finding.market.applications))
    headers = {"x-ebay-soa-operation-name": "findItemsByCategory", "x-ebay-soa-security-appname": app}
    body = b'<findItemsAdvancedRequest xmlns="http://www.ebay.com/marketplace/search/v1/services"><categoryId>9355</categoryId></findItemsAdvancedRequest>'
    _, status, _, text = finding.handle("POST", {**headers, "x-ebay-soa-response-data-format": "JSON"}, {}, body)
    answer = json.loads(text)["findItemsByCategoryResponse"][0]
    assert status == 200 and answer["ack"] == ["Success"]
    other = b'<getHistogramsRequest xmlns="http://www.ebay.com/marketplace/search/v1/services"/>'
    _, _, _, text = finding.handle("POST", {**headers, "x-ebay-soa-response-data-format": "JSON"}, {}, other)
    assert json.loads(text)["findItemsByCategoryResponse"][0]["ack"] == ["Failure"]  # not a search's body
