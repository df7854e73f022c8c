"""Success and failure of the emulator's Trading calls for messages, the Selling
Manager, the site's data and the account (the listing, buying, order and
feedback calls are in test_trading_calls.py); and that every implemented call
has its check in one of the two."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from qlgate_ebay_emulator.state import Marketplace
from qlgate_ebay_emulator.trading import Trading

from . import test_trading_calls, test_trading_reference
from .trading_harness import BUYER, BUYER_ID, SELLER, SELLER_ID, Api

CASES: dict[str, Callable[[Api], None]] = {}


def case(*calls: str) -> Callable[[Callable[[Api], None]], Callable[[Api], None]]:
    def register(check: Callable[[Api], None]) -> Callable[[Api], None]:
        for call in calls:
            CASES[call] = check
        return check

    return register


# ---------------------------------------------------------------- messages
def ask(api: Api) -> tuple[dict, str]:
    """The buyer of a sale asks the seller about it; the question's message ID."""
    sale = api.sale()
    api.ok(
        "AddMemberMessageAAQToPartner",
        f"<ItemID>{sale['item']}</ItemID><MemberMessage><Subject>Lid?</Subject><Body>Does it have a lid?</Body>"
        f"<QuestionType>General</QuestionType><RecipientID>{SELLER_ID}</RecipientID></MemberMessage>",
    )
    message = [m for m in api.market.trading.messages.values() if m.recipient == SELLER_ID][-1]
    return sale, message.message_id


@case("AddMemberMessageAAQToPartner")
def _(api: Api) -> None:
    ask(api)
    stranger = (
        f"<ItemID>{api.auction()}</ItemID><MemberMessage><Subject>Hi</Subject><Body>Hi</Body>"
        f"<QuestionType>General</QuestionType><RecipientID>{SELLER_ID}</RecipientID></MemberMessage>"
    )
    assert api.fails("AddMemberMessageAAQToPartner", stranger) == 20134


@case("AddMemberMessageRTQ", "GetMemberMessages")
def _(api: Api) -> None:
    sale, question = ask(api)
    got = api.ok("GetMemberMessages", f"<MailMessageType>All</MailMessageType><ItemID>{sale['item']}</ItemID>", SELLER)
    assert got["MemberMessage"]["MemberMessageExchange"]["Question"]["MessageID"] == int(question)
    reply = f"<MemberMessage><Body>Yes.</Body><ParentMessageID>{question}</ParentMessageID><RecipientID>{BUYER_ID}</RecipientID></MemberMessage>"
    api.ok("AddMemberMessageRTQ", reply, SELLER)
    assert api.market.trading.messages[question].status == "Answered"
    assert api.fails("AddMemberMessageRTQ", reply, BUYER) == 20137  # not asked of the buyer
    assert api.fails("GetMemberMessages", "<MailMessageType>All</MailMessageType>", SELLER) == 37


@case("AddMemberMessagesAAQToBidder")
def _(api: Api) -> None:
    item_id = api.auction()
    api.market.bid(api.market.items[item_id], BUYER_ID, 11.0)
    container = (
        f"<AddMemberMessagesAAQToBidderRequestContainer><CorrelationID>1</CorrelationID><ItemID>{item_id}</ItemID>"
        f"<MemberMessage><Body>Thanks for bidding</Body><RecipientID>RECIPIENT</RecipientID></MemberMessage>"
        "</AddMemberMessagesAAQToBidderRequestContainer>"
    )
    answer = api.ok("AddMemberMessagesAAQToBidder", container.replace("RECIPIENT", BUYER_ID), SELLER)
    assert answer["AddMemberMessagesAAQToBidderResponseContainer"]["Ack"] == "Success"
    answer = api.ok("AddMemberMessagesAAQToBidder", container.replace("RECIPIENT", "apitest1"), SELLER)
    assert answer["AddMemberMessagesAAQToBidderResponseContainer"]["Errors"]["ErrorCode"] == 20136
    assert api.fails("AddMemberMessagesAAQToBidder", "", SELLER) == 37


@case("GetMyMessages", "ReviseMyMessages", "DeleteMyMessages")
def _(api: Api) -> None:
    _, question = ask(api)
    inbox = api.ok("GetMyMessages", "<DetailLevel>ReturnMessages</DetailLevel>", SELLER)["Messages"]["Message"]
    assert inbox["Text"] == "Does it have a lid?" and inbox["Read"] is False
    ids = f"<MessageIDs><MessageID>{question}</MessageID></MessageIDs>"
    api.ok("ReviseMyMessages", ids + "<Read>true</Read><Flagged>true</Flagged>", SELLER)
    summary = api.ok("GetMyMessages", "<DetailLevel>ReturnSummary</DetailLevel>", SELLER)["Summary"]
    assert (summary["NewMessageCount"], summary["FlaggedMessageCount"]) == (0, 1)
    assert api.fails("ReviseMyMessages", ids + "<FolderID>77</FolderID>", SELLER) == 20164
    api.ok("DeleteMyMessages", ids, SELLER)
    assert api.fails("DeleteMyMessages", ids, SELLER) == 20163
    assert api.fails("GetMyMessages", "<DetailLevel>ReturnAll</DetailLevel>", SELLER) == 37


@case("ReviseMyMessagesFolders")
def _(api: Api) -> None:
    api.ok("ReviseMyMessagesFolders", "<Operation>Display</Operation><FolderName>Kettles</FolderName>", SELLER)
    assert api.market.trading.message_folders[SELLER_ID] == {"10": "Kettles"}
    assert api.fails("ReviseMyMessagesFolders", "<Operation>Remove</Operation><FolderID>99</FolderID>", SELLER) == 20164


@case("GetMessagePreferences", "SetMessagePreferences")
def _(api: Api) -> None:
    api.ok(
        "SetMessagePreferences",
        "<ASQPreferences><Subject>About the lid</Subject><Subject>Shipping</Subject></ASQPreferences>",
        SELLER,
    )
    prefs = api.ok(
        "GetMessagePreferences", f"<SellerID>{SELLER_ID}</SellerID><IncludeASQPreferences>true</IncludeASQPreferences>"
    )
    assert prefs["ASQPreferences"]["Subject"] == ["About the lid", "Shipping"]
    assert api.fails("SetMessagePreferences", "", SELLER) == 37
    assert api.fails("GetMessagePreferences", "<SellerID>nobody-here</SellerID>") == 21
    # the body of another call (ql.io's SetNotificationPreferences test) is refused by its root element
    wrong = '<SetNotificationPreferencesRequest xmlns="urn:ebay:apis:eBLBaseComponents"/>'
    assert api.fails("SetMessagePreferences", body=wrong) == 10012


# ---------------------------------------------------------------- Selling Manager
@case("AddSellingManagerProduct", "DeleteSellingManagerProduct")
def _(api: Api) -> None:
    product_id = api.product()
    assert api.ok("DeleteSellingManagerProduct", f"<ProductID>{product_id}</ProductID>", SELLER)
    assert api.fails("DeleteSellingManagerProduct", f"<ProductID>{product_id}</ProductID>", SELLER) == 21919301
    bad_folder = "<SellingManagerProductDetails><ProductName>X</ProductName><FolderID>1</FolderID></SellingManagerProductDetails>"
    assert api.fails("AddSellingManagerProduct", bad_folder, SELLER) == 21919303


@case("ReviseSellingManagerProduct", "GetSellingManagerInventory")
def _(api: Api) -> None:
    product_id = api.product()
    details = f"<SellingManagerProductDetails><ProductID>{product_id}</ProductID><QuantityAvailable>9</QuantityAvailable></SellingManagerProductDetails>"
    api.ok("ReviseSellingManagerProduct", details, SELLER)
    inventory = api.ok("GetSellingManagerInventory", "<FolderID>4651612545</FolderID>", SELLER)
    assert inventory["SellingManagerProduct"]["SellingManagerProductDetails"]["QuantityAvailable"] == 9
    assert api.fails("ReviseSellingManagerProduct", details, BUYER) == 21919301
    assert api.fails("GetSellingManagerInventory", "<FolderID>1</FolderID>", SELLER) == 21919303


@case(
    "AddSellingManagerInventoryFolder",
    "ReviseSellingManagerInventoryFolder",
    "GetSellingManagerInventoryFolder",
    "MoveSellingManagerInventoryFolder",
    "DeleteSellingManagerInventoryFolder",
)
def _(api: Api) -> None:
    add = "<ParentFolderID>4651612545</ParentFolderID><FolderName>HarryTrial</FolderName><Comment>for HP</Comment>"
    folder = str(api.ok("AddSellingManagerInventoryFolder", add, SELLER)["FolderID"])
    assert api.fails("AddSellingManagerInventoryFolder", add, SELLER) == 21919305
    api.ok(
        "ReviseSellingManagerInventoryFolder",
        f"<Folder><FolderID>{folder}</FolderID><FolderName>Potter</FolderName></Folder>",
        SELLER,
    )
    tree = api.ok("GetSellingManagerInventoryFolder", "<FolderID>4651612545</FolderID>", SELLER)["Folder"]
    assert tree["ChildFolder"]["FolderName"] == "Potter"
    assert (
        api.fails(
            "MoveSellingManagerInventoryFolder",
            f"<FolderID>4651612545</FolderID><NewParentFolderID>{folder}</NewParentFolderID>",
            SELLER,
        )
        == 21919307
    )
    api.ok("MoveSellingManagerInventoryFolder", f"<FolderID>{folder}</FolderID>", SELLER)
    assert (
        api.fails("ReviseSellingManagerInventoryFolder", "<Folder><FolderID>1</FolderID></Folder>", SELLER) == 21919303
    )
    assert api.fails("GetSellingManagerInventoryFolder", "<FolderID>1</FolderID>", SELLER) == 21919303
    api.product()  # filed in 4651612545
    assert api.fails("DeleteSellingManagerInventoryFolder", "<FolderID>4651612545</FolderID>", SELLER) == 21919306
    api.ok("DeleteSellingManagerInventoryFolder", f"<FolderID>{folder}</FolderID>", SELLER)
    assert folder not in api.market.users[SELLER_ID].folders


@case("GetSellingManagerSoldListings", "GetSellingManagerSaleRecord", "ReviseSellingManagerSaleRecord")
def _(api: Api) -> None:
    sale = api.sale()
    sold = api.ok("GetSellingManagerSoldListings", "<Filter>PaidNotShipped</Filter>", SELLER)["SaleRecord"]
    assert sold["BuyerID"] == BUYER_ID
    api.ok(
        "ReviseSellingManagerSaleRecord",
        f"<OrderID>{sale['order']}</OrderID><SellingManagerSoldOrder><Notes>gift</Notes></SellingManagerSoldOrder>",
        SELLER,
    )
    assert (
        api.ok("GetSellingManagerSaleRecord", f"<OrderID>{sale['order']}</OrderID>", SELLER)["SellingManagerSoldOrder"][
            "Notes"
        ]
        == "gift"
    )
    assert api.fails("GetSellingManagerSaleRecord", f"<OrderID>{sale['order']}</OrderID>") == 21916624
    assert api.fails("ReviseSellingManagerSaleRecord", "<OrderID>nope</OrderID>", SELLER) == 21916623
    assert (
        api.fails(
            "GetSellingManagerSoldListings",
            "<Search><SearchType>Nope</SearchType><SearchValue>x</SearchValue></Search>",
            SELLER,
        )
        == 37
    )


@case("SetSellingManagerFeedbackOptions")
def _(api: Api) -> None:
    inner = "<AutomatedLeaveFeedbackEvent>PaymentReceived</AutomatedLeaveFeedbackEvent><StoredComments><StoredCommentText>Prompt payment!</StoredCommentText></StoredComments>"
    api.ok("SetSellingManagerFeedbackOptions", inner, SELLER)
    assert api.market.trading.feedback_options[SELLER_ID] == {
        "Event": "PaymentReceived",
        "Comments": ["Prompt payment!"],
    }
    assert api.fails("SetSellingManagerFeedbackOptions", "", SELLER) == 37


@case("GetSellingManagerAlerts", "GetSellingManagerEmailLog")
def _(api: Api) -> None:
    sale = api.sale()
    alerts = api.ok("GetSellingManagerAlerts", "", SELLER)["Alert"]
    assert alerts["SoldAlert"] == "PaidNotShipped"
    assert (
        api.ok("GetSellingManagerEmailLog", f"<OrderID>{sale['order']}</OrderID>", SELLER)["OrderID"] == sale["order"]
    )
    assert api.fails("GetSellingManagerEmailLog", "", SELLER) == 37
    assert api.fails("GetSellingManagerAlerts", token="NOT-A-TOKEN") == 931


def template(api: Api) -> str:
    product_id = api.product()
    return str(
        api.ok(
            "SaveItemToSellingManagerTemplate",
            f"<ItemID>{api.auction()}</ItemID><ProductID>{product_id}</ProductID><TemplateName>Kettle</TemplateName>",
            SELLER,
        )["TemplateID"]
    )


@case(
    "SaveItemToSellingManagerTemplate",
    "AddItemFromSellingManagerTemplate",
    "GetSellingManagerTemplates",
    "DeleteSellingManagerTemplate",
)
def _(api: Api) -> None:
    template_id = template(api)
    listed = api.ok("AddItemFromSellingManagerTemplate", f"<SaleTemplateID>{template_id}</SaleTemplateID>", SELLER)
    assert api.market.items[str(listed["ItemID"])].title == "Blue Kettle"
    got = api.ok("GetSellingManagerTemplates", "", SELLER)["SellingManagerTemplateDetailsArray"][
        "SellingManagerTemplateDetails"
    ]
    assert got["SaleTemplateName"] == "Kettle"
    api.ok("DeleteSellingManagerTemplate", f"<SaleTemplateID>{template_id}</SaleTemplateID>", SELLER)
    assert (
        api.fails("AddItemFromSellingManagerTemplate", f"<SaleTemplateID>{template_id}</SaleTemplateID>", SELLER)
        == 21919309
    )
    assert (
        api.fails("DeleteSellingManagerTemplate", f"<SaleTemplateID>{template_id}</SaleTemplateID>", SELLER) == 21919309
    )
    assert api.fails("GetSellingManagerTemplates", "<SaleTemplateID>1</SaleTemplateID>", SELLER) == 21919309
    assert (
        api.fails(
            "SaveItemToSellingManagerTemplate",
            "<ItemID>1</ItemID><ProductID>1</ProductID><TemplateName>x</TemplateName>",
            SELLER,
        )
        == 17
    )


@case("AddSellingManagerTemplate")
def _(api: Api) -> None:
    from .trading_harness import item_xml

    product_id = api.product()
    answer = api.ok(
        "AddSellingManagerTemplate",
        f"{item_xml()}<ProductID>{product_id}</ProductID><SaleTemplateName>T</SaleTemplateName>",
        SELLER,
    )
    assert str(answer["SaleTemplateID"]) in api.market.trading.templates
    assert api.fails("AddSellingManagerTemplate", f"{item_xml()}<ProductID>1</ProductID>", SELLER) == 21919301


@case(
    "SetSellingManagerItemAutomationRule",
    "GetSellingManagerItemAutomationRule",
    "DeleteSellingManagerItemAutomationRule",
)
def _(api: Api) -> None:
    item_id = api.auction()
    rule = f"<ItemID>{item_id}</ItemID><AutomatedRelistingRule><RelistCondition>RelistImmediately</RelistCondition></AutomatedRelistingRule>"
    api.ok("SetSellingManagerItemAutomationRule", rule, SELLER)
    got = api.ok("GetSellingManagerItemAutomationRule", f"<ItemID>{item_id}</ItemID>", SELLER)
    assert got["AutomatedRelistingRule"]["RelistCondition"] == "RelistImmediately"
    delete = f"<ItemID>{item_id}</ItemID><DeleteAutomatedRelistingRule>true</DeleteAutomatedRelistingRule>"
    api.ok("DeleteSellingManagerItemAutomationRule", delete, SELLER)
    assert api.fails("DeleteSellingManagerItemAutomationRule", delete, SELLER) == 21919310
    assert api.fails("SetSellingManagerItemAutomationRule", f"<ItemID>{item_id}</ItemID>", SELLER) == 37
    assert api.fails("GetSellingManagerItemAutomationRule", f"<ItemID>{item_id}</ItemID>", BUYER) == 17


@case(
    "SetSellingManagerTemplateAutomationRule",
    "GetSellingManagerTemplateAutomationRule",
    "DeleteSellingManagerTemplateAutomationRule",
)
def _(api: Api) -> None:
    template_id = template(api)
    rule = f"<SaleTemplateID>{template_id}</SaleTemplateID><AutomatedListingRule><ListingHoldInventoryLevel>6</ListingHoldInventoryLevel></AutomatedListingRule>"
    api.ok("SetSellingManagerTemplateAutomationRule", rule, SELLER)
    got = api.ok("GetSellingManagerTemplateAutomationRule", f"<SaleTemplateID>{template_id}</SaleTemplateID>", SELLER)
    assert got["AutomatedListingRule"]["ListingHoldInventoryLevel"] == 6
    api.ok(
        "DeleteSellingManagerTemplateAutomationRule",
        f"<SaleTemplateID>{template_id}</SaleTemplateID><DeleteAutomatedListingRule>true</DeleteAutomatedListingRule>",
        SELLER,
    )
    assert api.fails("SetSellingManagerTemplateAutomationRule", rule.replace(template_id, "76155"), SELLER) == 21919309
    assert (
        api.fails("GetSellingManagerTemplateAutomationRule", "<SaleTemplateID>76155</SaleTemplateID>", SELLER)
        == 21919309
    )
    assert (
        api.fails(
            "DeleteSellingManagerTemplateAutomationRule",
            f"<SaleTemplateID>{template_id}</SaleTemplateID><DeleteAutomatedListingRule>true</DeleteAutomatedListingRule>",
            SELLER,
        )
        == 21919310
    )


# ---------------------------------------------------------------- the site
@case("GetCategories")
def _(api: Api) -> None:
    some = next(iter(api.market.categories.values()))
    answer = api.ok(
        "GetCategories", f"<CategoryParent>{some.category_id}</CategoryParent><DetailLevel>ReturnAll</DetailLevel>"
    )
    assert answer["CategoryCount"] >= 1
    assert api.fails("GetCategories", "<CategoryParent>999999999</CategoryParent>") == 87


@case("GetCategoryFeatures")
def _(api: Api) -> None:
    answer = api.ok("GetCategoryFeatures", "<CategoryID>377</CategoryID><FeatureID>ConditionEnabled</FeatureID>")
    assert answer["Category"]["ConditionEnabled"] == "Enabled"
    assert api.fails("GetCategoryFeatures", "<CategoryID>999999999</CategoryID>") == 87


@case("GetCategorySpecifics")
def _(api: Api) -> None:
    answer = api.ok("GetCategorySpecifics", "<CategoryID>31388</CategoryID>")
    names = [n["Name"] for n in answer["Recommendations"]["NameRecommendation"]]
    assert "Brand" in names
    assert api.fails("GetCategorySpecifics") == 37


@case("GetSuggestedCategories")
def _(api: Api) -> None:
    answer = api.ok("GetSuggestedCategories", "<Query>digital camera</Query>")
    first = answer["SuggestedCategoryArray"]["SuggestedCategory"]
    first = first[0] if isinstance(first, list) else first
    assert "camera" in first["Category"]["CategoryName"].lower()
    assert api.fails("GetSuggestedCategories") == 37


@case("GeteBayDetails")
def _(api: Api) -> None:
    assert api.ok("GeteBayDetails", "<DetailName>ShippingCarrierDetails</DetailName>")["ShippingCarrierDetails"]
    assert api.fails("GeteBayDetails", "<DetailName>Nope</DetailName>") == 37


@case("GetItemShipping")
def _(api: Api) -> None:
    item_id = api.auction()
    answer = api.ok(
        "GetItemShipping", f"<ItemID>{item_id}</ItemID><DestinationPostalCode>10001</DestinationPostalCode>"
    )
    assert answer["ShippingDetails"]["ShippingServiceOptions"]["ShippingServiceCost"]["$t"] > 0
    assert api.fails("GetItemShipping", f"<ItemID>{item_id}</ItemID>") == 37


@case("GetApiAccessRules")
def _(api: Api) -> None:
    api.ok("GeteBayOfficialTime")
    rules = api.ok("GetApiAccessRules")["ApiAccessRule"]
    assert {r["CallName"]: r["DailyUsage"] for r in rules}["GeteBayOfficialTime"] == 1
    assert api.fails("GetApiAccessRules", token="NOT-A-TOKEN") == 931


# ---------------------------------------------------------------- the account
@case("GetUser")
def _(api: Api) -> None:
    assert api.ok("GetUser", f"<UserID>{SELLER_ID}</UserID>")["User"]["UserID"] == SELLER_ID
    assert api.fails("GetUser", "<UserID>nobody-here</UserID>") == 21


@case("GetTokenStatus")
def _(api: Api) -> None:
    assert api.ok("GetTokenStatus")["TokenStatus"]["Status"] == "Active"
    password = "<RequesterCredentials><Username>apitest1</Username><Password>ebay</Password></RequesterCredentials>"
    body = f'<GetTokenStatusRequest xmlns="urn:ebay:apis:eBLBaseComponents">{password}</GetTokenStatusRequest>'
    assert api.fails("GetTokenStatus", body=body) == 21916014


@case("GetSessionID", "FetchToken")
def _(api: Api) -> None:
    app = {"X-EBAY-API-APP-NAME": "TEST-APPNAME"}
    session = str(api.ok("GetSessionID", "<RuName>qlgate-RuName</RuName>", token=None, headers=app)["SessionID"])
    inner = f"<SessionID>{session}</SessionID>"
    assert api.fails("FetchToken", inner, token=None, headers=app) == 21916017  # not signed in yet
    api.market.trading.sessions[session] = SELLER_ID  # the user signs in and agrees
    token = api.ok("FetchToken", inner, token=None, headers=app)["eBayAuthToken"]
    assert api.ok("GetUser", "", token=token)["User"]["UserID"] == SELLER_ID
    assert api.fails("FetchToken", inner, token=None, headers=app) == 21916016  # one token per session
    assert api.fails("GetSessionID", "<RuName>x</RuName>", token=None) == 931  # no application keys


@case("GetClientAlertsAuthToken")
def _(api: Api) -> None:
    assert api.ok("GetClientAlertsAuthToken")["ClientAlertsAuthToken"]
    assert api.fails("GetClientAlertsAuthToken", token="NOT-A-TOKEN") == 931


@case("GetUserPreferences", "SetUserPreferences")
def _(api: Api) -> None:
    prefs = "<EndOfAuctionEmailPreferences><TemplateText>Thanks!</TemplateText></EndOfAuctionEmailPreferences>"
    api.ok("SetUserPreferences", prefs, SELLER)
    got = api.ok(
        "GetUserPreferences", "<ShowEndOfAuctionEmailPreferences>true</ShowEndOfAuctionEmailPreferences>", SELLER
    )
    assert got["EndOfAuctionEmailPreferences"]["TemplateText"] == "Thanks!"
    assert api.fails("SetUserPreferences", "", SELLER) == 37
    assert api.fails("GetUserPreferences", "", SELLER) == 37


@case("GetNotificationPreferences", "SetNotificationPreferences", "GetNotificationsUsage")
def _(api: Api) -> None:
    events = "<UserDeliveryPreferenceArray><NotificationEnable><EventType>BidReceived</EventType><EventEnable>Enable</EventEnable></NotificationEnable></UserDeliveryPreferenceArray>"
    api.ok("SetNotificationPreferences", events, SELLER)
    got = api.ok("GetNotificationPreferences", "<PreferenceLevel>User</PreferenceLevel>", SELLER)
    assert got["UserDeliveryPreferenceArray"]["NotificationEnable"]["EventType"] == "BidReceived"
    assert api.ok("GetNotificationsUsage", "", SELLER)["NotificationStatistics"]["DeliveredCount"] == 0
    assert (
        api.fails("SetNotificationPreferences", events.replace("Enable</EventEnable>", "Maybe</EventEnable>"), SELLER)
        == 37
    )
    assert api.fails("GetNotificationPreferences", "<PreferenceLevel>Nope</PreferenceLevel>", SELLER) == 37
    assert api.fails("GetNotificationsUsage", "<ItemID>1</ItemID>", SELLER) == 17


@case("SetUserNotes")
def _(api: Api) -> None:
    item_id = api.auction()
    api.ok("SetUserNotes", f"<Action>AddOrUpdate</Action><ItemID>{item_id}</ItemID><NoteText>birthday</NoteText>")
    assert api.market.trading.notes[(BUYER_ID, item_id)] == "birthday"
    api.ok("SetUserNotes", f"<Action>Delete</Action><ItemID>{item_id}</ItemID>")
    assert api.fails("SetUserNotes", f"<Action>Delete</Action><ItemID>{item_id}</ItemID>") == 21916190


@case("GetStore", "SetStore", "GetStorePreferences", "SetStorePreferences")
def _(api: Api) -> None:
    assert api.fails("GetStore", "", SELLER) == 13003
    assert api.fails("GetStorePreferences", "", SELLER) == 13003
    assert (
        api.fails("SetStorePreferences", "<StorePreferences><VacationPreferences/></StorePreferences>", SELLER) == 13003
    )
    api.ok("SetStore", "<Store><Name>Kettle Kingdom</Name><Description>Kettles.</Description></Store>", SELLER)
    assert api.ok("GetStore", f"<UserID>{SELLER_ID}</UserID>")["Store"]["Name"] == "Kettle Kingdom"
    api.ok(
        "SetStorePreferences",
        "<StorePreferences><VacationPreferences><OnVacation>true</OnVacation></VacationPreferences></StorePreferences>",
        SELLER,
    )
    assert api.ok("GetStorePreferences", "", SELLER)["StorePreferences"]["VacationPreferences"]["OnVacation"] is True
    assert api.fails("SetStore", "<Store><Name> </Name></Store>", SELLER) == 13004


@case("UploadSiteHostedPictures")
def _(api: Api) -> None:
    url = "<ExternalPictureURL>http://developer.ebay.com/DevZone/XML/docs/images/hp_book_image.jpg</ExternalPictureURL>"
    assert api.ok("UploadSiteHostedPictures", url + "<PictureName>HarryPotterPic-1</PictureName>")[
        "SiteHostedPictureDetails"
    ]["FullURL"]
    assert api.fails("UploadSiteHostedPictures", "<PictureName>x</PictureName>") == 37


@case("GetMyeBayReminders")
def _(api: Api) -> None:
    api.sale()
    assert api.ok("GetMyeBayReminders", "", SELLER)["SellingReminders"]["ItemsToShipCount"] == 1
    assert api.fails("GetMyeBayReminders", token="NOT-A-TOKEN") == 931


@pytest.mark.parametrize("call", sorted(CASES))
def test_call_succeeds_and_fails_like_ebay(call):
    CASES[call](Api())


def test_every_implemented_call_has_a_check_and_more_than_half_are_implemented():
    path = Path(__file__).resolve().parents[2] / "data" / "ebay" / "catalog.json"
    catalog = json.loads(path.read_text())
    names = {c["call"] for c in catalog["calls"] if c["service"] == "trading"}
    implemented = set(Trading(Marketplace({"users": []})).implemented())
    assert len(implemented & names) > len(names) / 2
    assert implemented - set(CASES) - set(test_trading_calls.CASES) - set(test_trading_reference.CASES) == set()
