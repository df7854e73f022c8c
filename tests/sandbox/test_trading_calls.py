"""Every Trading call the emulator implements answers a well-formed request with
``Ack`` Success over the shared state, and a wrong one with ``Ack`` Failure and an
eBay error code: one check of each per call, on a fresh marketplace."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from .trading_harness import BUYER, BUYER_ID, SELLER, SELLER_ID, Api, item_xml

CASES: dict[str, Callable[[Api], None]] = {}


def case(*calls: str) -> Callable[[Callable[[Api], None]], Callable[[Api], None]]:
    def register(check: Callable[[Api], None]) -> Callable[[Api], None]:
        for call in calls:
            CASES[call] = check
        return check

    return register


def ended(api: Api) -> str:
    item_id = api.auction()
    api.ok("EndItem", f"<ItemID>{item_id}</ItemID><EndingReason>NotAvailable</EndingReason>", SELLER)
    return item_id


# ---------------------------------------------------------------- listings
@case("GeteBayOfficialTime")
def _(api: Api) -> None:
    assert "Timestamp" in api.ok("GeteBayOfficialTime")
    assert api.fails("GeteBayOfficialTime", token="NOT-A-TOKEN") == 931


@case("AddItem", "VerifyAddItem")
def _(api: Api) -> None:
    assert int(api.ok("AddItem", item_xml(), SELLER)["ItemID"]) > 0
    assert api.ok("VerifyAddItem", item_xml(), SELLER)["ItemID"] == 0
    assert api.fails("AddItem", item_xml().replace("<Currency>USD</Currency>", ""), SELLER) == 37
    assert api.fails("VerifyAddItem", item_xml().replace("Days_7", "Days_99"), SELLER) == 37


@case("AddFixedPriceItem", "VerifyAddFixedPriceItem")
def _(api: Api) -> None:
    fixed = item_xml(kind="FixedPriceItem", extra="<Quantity>3</Quantity>")
    assert api.ok("AddFixedPriceItem", fixed, SELLER)["ItemID"]
    assert api.ok("VerifyAddFixedPriceItem", fixed, SELLER)["ItemID"] == 0
    assert api.fails("AddFixedPriceItem", item_xml(), SELLER) == 21916286  # an auction
    assert api.fails("VerifyAddFixedPriceItem", fixed.replace("<Title>Blue Kettle</Title>", ""), SELLER) == 37


@case("AddItems")
def _(api: Api) -> None:
    good = f"<AddItemRequestContainer><MessageID>1</MessageID>{item_xml()}</AddItemRequestContainer>"
    bad = f"<AddItemRequestContainer><MessageID>2</MessageID>{item_xml(price='x')}</AddItemRequestContainer>"
    answer = api.ok("AddItems", good + bad, SELLER)["AddItemResponseContainer"]
    assert answer[0]["ItemID"] and answer[1]["Errors"]["ErrorCode"] == 37
    assert api.fails("AddItems", good * 6, SELLER) == 21916284


@case("ReviseItem")
def _(api: Api) -> None:
    item_id = api.auction()
    api.ok("ReviseItem", f"<Item><ItemID>{item_id}</ItemID><Title>Green Kettle</Title></Item>", SELLER)
    assert api.market.items[item_id].title == "Green Kettle"
    assert api.fails("ReviseItem", f"<Item><ItemID>{item_id}</ItemID><Title>Mine</Title></Item>", BUYER) == 17


@case("ReviseFixedPriceItem")
def _(api: Api) -> None:
    item_id = api.fixed()
    api.ok("ReviseFixedPriceItem", "<Item><SKU>KET-1</SKU><StartPrice>18.00</StartPrice></Item>", SELLER)
    assert api.market.items[item_id].price == 18.0
    assert api.fails("ReviseFixedPriceItem", f"<Item><ItemID>{api.auction()}</ItemID></Item>", SELLER) == 21916286


@case("ReviseInventoryStatus")
def _(api: Api) -> None:
    item_id = api.fixed()
    status = f"<InventoryStatus><ItemID>{item_id}</ItemID><Quantity>9</Quantity></InventoryStatus>"
    assert api.ok("ReviseInventoryStatus", status, SELLER)["InventoryStatus"]["Quantity"] == 9
    assert api.fails("ReviseInventoryStatus", "<InventoryStatus><SKU>NOPE</SKU></InventoryStatus>", SELLER) == 21916270


@case("AddToItemDescription")
def _(api: Api) -> None:
    item_id = api.auction()
    api.ok("AddToItemDescription", f"<ItemID>{item_id}</ItemID><Description>With lid.</Description>", SELLER)
    assert "With lid." in api.market.items[item_id].description
    assert api.fails("AddToItemDescription", f"<ItemID>{item_id}</ItemID>", SELLER) == 37


@case("EndItem", "EndFixedPriceItem")
def _(api: Api) -> None:
    item_id = ended(api)
    assert not api.market.items[item_id].active
    assert api.fails("EndItem", f"<ItemID>{item_id}</ItemID><EndingReason>Incorrect</EndingReason>", SELLER) == 1047
    fixed = api.fixed()
    api.ok("EndFixedPriceItem", "<SKU>KET-1</SKU><EndingReason>LostOrBroken</EndingReason>", SELLER)
    assert not api.market.items[fixed].active
    assert api.fails("EndFixedPriceItem", "<EndingReason>LostOrBroken</EndingReason>", SELLER) == 37


@case("EndItems")
def _(api: Api) -> None:
    first, second = api.auction(), api.auction()
    body = "".join(
        f"<EndItemRequestContainer><MessageID>{n}</MessageID><ItemID>{i}</ItemID>"
        "<EndingReason>NotAvailable</EndingReason></EndItemRequestContainer>"
        for n, i in enumerate((first, second, "1"))
    )
    answer = api.ok("EndItems", body, SELLER)["EndItemResponseContainer"]
    assert answer[0]["EndTime"] and answer[2]["Errors"]["ErrorCode"] == 17
    assert api.fails("EndItems", "", SELLER) == 37


@case("RelistItem", "VerifyRelistItem")
def _(api: Api) -> None:
    item_id = ended(api)
    assert api.ok("VerifyRelistItem", f"<Item><ItemID>{item_id}</ItemID></Item>", SELLER)["ItemID"] == 0
    new = str(api.ok("RelistItem", f"<Item><ItemID>{item_id}</ItemID></Item>", SELLER)["ItemID"])
    assert api.market.items[new].active and api.market.items[new].title == "Blue Kettle"
    assert api.fails("RelistItem", f"<Item><ItemID>{new}</ItemID></Item>", SELLER) == 21916750


@case("RelistFixedPriceItem")
def _(api: Api) -> None:
    item_id = api.fixed()
    api.ok("EndFixedPriceItem", f"<ItemID>{item_id}</ItemID><EndingReason>NotAvailable</EndingReason>", SELLER)
    relisted = api.ok(
        "RelistFixedPriceItem", f"<Item><ItemID>{item_id}</ItemID><StartPrice>25</StartPrice></Item>", SELLER
    )
    assert api.market.items[str(relisted["ItemID"])].price == 25.0
    assert api.fails("RelistFixedPriceItem", f"<Item><ItemID>{ended(api)}</ItemID></Item>", SELLER) == 21916286


@case("AddSecondChanceItem")
def _(api: Api) -> None:
    item_id = api.auction()
    for token, bid in ((BUYER, "12"), ("SELLER-OTHER", "0")):
        if token == BUYER:
            api.ok(
                "PlaceOffer",
                f"<EndUserIP>1</EndUserIP><Offer><Action>Bid</Action><MaxBid>{bid}</MaxBid>"
                f"<Quantity>1</Quantity></Offer><ItemID>{item_id}</ItemID>",
            )
    api.market.bid(api.market.items[item_id], "apitest1", 30.0)
    api.ok("EndItem", f"<ItemID>{item_id}</ItemID><EndingReason>NotAvailable</EndingReason>", SELLER)
    inner = f"<ItemID>{item_id}</ItemID><RecipientBidderUserID>{BUYER_ID}</RecipientBidderUserID><Duration>Days_3</Duration>"
    offered = api.ok("AddSecondChanceItem", inner, SELLER)
    assert api.market.items[str(offered["ItemID"])].price == 12.0
    assert api.fails("AddSecondChanceItem", inner.replace(BUYER_ID, "apitest1"), SELLER) == 21916480  # the winner


@case("GetItem")
def _(api: Api) -> None:
    item_id = api.fixed()
    assert api.ok("GetItem", "<SKU>KET-1</SKU>", SELLER)["Item"]["ItemID"] == int(item_id)
    assert api.ok("GetItem", f"<ItemID>{item_id}</ItemID>")["Item"]["Title"] == "Red Kettle"
    assert api.fails("GetItem", "<ItemID>1</ItemID>") == 17


@case("GetSellerList")
def _(api: Api) -> None:
    api.auction()
    answer = api.ok("GetSellerList", "<StartTimeFrom>2020-01-01T00:00:00Z</StartTimeFrom>", SELLER)
    assert answer["ReturnedItemCountActual"] >= 1
    assert api.fails("GetSellerList", "<UserID>nobody-here</UserID>", SELLER) == 21


@case("GetSellerEvents")
def _(api: Api) -> None:
    api.auction()
    assert api.ok("GetSellerEvents", "<StartTimeFrom>2020-01-01T00:00:00Z</StartTimeFrom>", SELLER)["ItemArray"]
    assert api.fails("GetSellerEvents", "", SELLER) == 37


# ---------------------------------------------------------------- buying
@case("PlaceOffer")
def _(api: Api) -> None:
    sale = api.sale()
    assert api.market.orders[sale["order"]].buyer == BUYER_ID
    item_id = api.auction()
    low = f"<EndUserIP>1</EndUserIP><Offer><Action>Bid</Action><MaxBid>1</MaxBid><Quantity>1</Quantity></Offer><ItemID>{item_id}</ItemID>"
    assert api.fails("PlaceOffer", low) == 12016


@case("GetAllBidders")
def _(api: Api) -> None:
    item_id = api.auction()
    api.market.bid(api.market.items[item_id], BUYER_ID, 15.0)
    bids = api.ok("GetAllBidders", f"<ItemID>{item_id}</ItemID>", SELLER)["BidArray"]["Offer"]
    assert bids["User"]["UserID"] == BUYER_ID and bids["MaxBid"]["$t"] == 15.0
    assert api.fails("GetAllBidders", f"<ItemID>{api.fixed()}</ItemID>", SELLER) == 12004


def best_offer(api: Api, item_id: str, price: str = "15.00") -> str:
    answer = api.ok(
        "PlaceOffer",
        f"<EndUserIP>1</EndUserIP><Offer><Action>Offer</Action><MaxBid>{price}</MaxBid><Quantity>1</Quantity>"
        f"</Offer><ItemID>{item_id}</ItemID>",
    )
    return str(answer["BestOffer"])


@case("GetBestOffers")
def _(api: Api) -> None:
    item_id = api.fixed()
    offer_id = best_offer(api, item_id)
    offers = api.ok("GetBestOffers", f"<ItemID>{item_id}</ItemID>", SELLER)["ItemBestOffersArray"]["ItemBestOffers"]
    assert offers["BestOfferArray"]["BestOffer"]["BestOfferID"] == int(offer_id)
    assert api.fails("GetBestOffers", "<BestOfferID>42</BestOfferID>", SELLER) == 21916003


@case("RespondToBestOffer")
def _(api: Api) -> None:
    item_id = api.fixed()
    offer_id = best_offer(api, item_id)
    inner = f"<ItemID>{item_id}</ItemID><BestOfferID>{offer_id}</BestOfferID><Action>Accept</Action>"
    api.ok("RespondToBestOffer", inner, SELLER)
    assert [o.line_items[0].price for o in api.market.orders_of(buyer=BUYER_ID)] == [15.0]
    assert api.fails("RespondToBestOffer", inner, SELLER) == 21916005  # already answered


@case("AddToWatchList", "RemoveFromWatchList")
def _(api: Api) -> None:
    item_id = api.auction()
    assert api.ok("AddToWatchList", f"<ItemID>{item_id}</ItemID>")["WatchListCount"] == 1
    assert api.fails("AddToWatchList", "<ItemID>1</ItemID>") == 17
    assert api.ok("RemoveFromWatchList", f"<ItemID>{item_id}</ItemID>")["WatchListCount"] == 0
    assert api.fails("RemoveFromWatchList", f"<ItemID>{item_id}</ItemID>") == 21002


@case("GetMyeBayBuying")
def _(api: Api) -> None:
    api.sale()
    assert api.ok("GetMyeBayBuying")["WonList"]["OrderTransactionArray"]["OrderTransaction"]
    assert api.fails("GetMyeBayBuying", token=None) == 931


@case("GetMyeBaySelling")
def _(api: Api) -> None:
    api.sale()
    summary = api.ok("GetMyeBaySelling", "", SELLER)
    assert summary["SoldList"]["OrderTransactionArray"] and summary["Summary"]["TotalSoldCount"] == 1
    assert api.fails("GetMyeBaySelling", body="<GetMyeBaySellingRequest><broken>") == 5


# ---------------------------------------------------------------- orders
@case("GetOrders")
def _(api: Api) -> None:
    sale = api.sale()
    orders = api.ok("GetOrders", "<NumberOfDays>1</NumberOfDays>", SELLER)["OrderArray"]["Order"]
    assert orders["OrderID"] == sale["order"] and orders["BuyerUserID"] == BUYER_ID
    assert api.fails("GetOrders", "<OrderRole>Seller</OrderRole>", SELLER) == 37


@case("GetOrderTransactions")
def _(api: Api) -> None:
    sale = api.sale()
    inner = f"<OrderIDArray><OrderID>{sale['order']}</OrderID></OrderIDArray>"
    assert api.ok("GetOrderTransactions", inner)["OrderArray"]["Order"]["OrderID"] == sale["order"]
    assert api.fails("GetOrderTransactions") == 37


@case("GetItemTransactions")
def _(api: Api) -> None:
    sale = api.sale()
    answer = api.ok("GetItemTransactions", f"<ItemID>{sale['item']}</ItemID>", SELLER)
    assert answer["TransactionArray"]["Transaction"]["Buyer"]["UserID"] == BUYER_ID
    assert api.fails("GetItemTransactions", f"<ItemID>{api.auction()}</ItemID>", "NOT-A-TOKEN") == 931
    assert api.fails(
        "GetItemTransactions", f"<ItemID>{sale['item']}</ItemID>", api.market.users["ql.io-test1"].token or "x"
    ) in (17, 931)


@case("GetSellerTransactions")
def _(api: Api) -> None:
    api.sale()
    assert api.ok("GetSellerTransactions", "", SELLER)["ReturnedTransactionCountActual"] == 1
    assert api.fails("GetSellerTransactions", "<NumberOfDays>99</NumberOfDays>", SELLER) == 37


@case("CompleteSale")
def _(api: Api) -> None:
    sale = api.sale()
    shipment = (
        f"<OrderID>{sale['order']}</OrderID><Shipment><ShipmentTrackingDetails><ShippingCarrierUsed>USPS</ShippingCarrierUsed>"
        "<ShipmentTrackingNumber>9400100000000000000000</ShipmentTrackingNumber></ShipmentTrackingDetails></Shipment>"
    )
    api.ok("CompleteSale", shipment, SELLER)
    order = api.market.orders[sale["order"]]
    assert order.status == "FULFILLED" and order.shipments[0].carrier == "USPS"
    assert api.fails("CompleteSale", shipment) == 21916624  # the buyer


@case("ReviseCheckoutStatus")
def _(api: Api) -> None:
    sale = api.sale()
    api.ok(
        "ReviseCheckoutStatus", f"<OrderID>{sale['order']}</OrderID><CheckoutStatus>Incomplete</CheckoutStatus>", SELLER
    )
    assert not api.market.orders[sale["order"]].paid
    assert api.fails("ReviseCheckoutStatus", f"<OrderID>{sale['order']}</OrderID>", SELLER) == 37


@case("SendInvoice")
def _(api: Api) -> None:
    sale = api.sale()
    assert api.fails("SendInvoice", f"<OrderID>{sale['order']}</OrderID>", SELLER) == 21916626  # paid
    api.market.orders[sale["order"]].paid = False
    api.ok("SendInvoice", f"<OrderID>{sale['order']}</OrderID>", SELLER)


@case("AddOrder")
def _(api: Api) -> None:
    item_id = api.fixed()
    first, second = api.buy(item_id), api.buy(item_id)
    for s in (first, second):
        api.market.orders[s["order"]].paid = False
    transactions = "".join(
        f"<Transaction><Item><ItemID>{item_id}</ItemID></Item><TransactionID>{s['transaction']}</TransactionID></Transaction>"
        for s in (first, second)
    )
    inner = (
        f"<Order><TransactionArray>{transactions}</TransactionArray><Total>40.00</Total>"
        "<CreatingUserRole>Seller</CreatingUserRole><PaymentMethods>PayPal</PaymentMethods></Order>"
    )
    combined = api.ok("AddOrder", inner, SELLER)["OrderID"]
    assert len(api.market.orders[combined].line_items) == 2 and first["order"] not in api.market.orders
    assert api.fails("AddOrder", "<Order><Total>1</Total></Order>", SELLER) == 37


# ---------------------------------------------------------------- feedback and disputes
def feedback(api: Api, sale: dict, token: str = BUYER, target: str = SELLER_ID) -> str:
    inner = (
        f"<ItemID>{sale['item']}</ItemID><TransactionID>{sale['transaction']}</TransactionID><CommentText>Great</CommentText>"
        f"<CommentType>Positive</CommentType><TargetUser>{target}</TargetUser>"
    )
    return str(api.ok("LeaveFeedback", inner, token)["FeedbackID"])


@case("LeaveFeedback")
def _(api: Api) -> None:
    sale = api.sale()
    before = api.market.users[SELLER_ID].feedback
    feedback(api, sale)
    assert api.market.users[SELLER_ID].feedback == before + 1
    again = f"<ItemID>{sale['item']}</ItemID><CommentText>x</CommentText><CommentType>Positive</CommentType><TargetUser>{SELLER_ID}</TargetUser>"
    assert api.fails("LeaveFeedback", again) == 55


@case("GetFeedback")
def _(api: Api) -> None:
    feedback(api, api.sale())
    detail = api.ok("GetFeedback", "", SELLER)["FeedbackDetailArray"]["FeedbackDetail"]
    assert (detail["CommentingUser"], detail["CommentType"]) == (BUYER_ID, "Positive")
    assert api.fails("GetFeedback", "<UserID>nobody-here</UserID>") == 21


@case("RespondToFeedback")
def _(api: Api) -> None:
    feedback_id = feedback(api, api.sale())
    inner = f"<FeedbackID>{feedback_id}</FeedbackID><ResponseType>Reply</ResponseType><ResponseText>Thanks</ResponseText><TargetUserID>{BUYER_ID}</TargetUserID>"
    api.ok("RespondToFeedback", inner, SELLER)
    assert api.market.trading.feedback[0].response == "Thanks"
    assert api.fails("RespondToFeedback", inner, SELLER) == 21916180


@case("GetItemsAwaitingFeedback")
def _(api: Api) -> None:
    api.sale()
    assert api.ok("GetItemsAwaitingFeedback", "", SELLER)["ItemsAwaitingFeedback"]["TransactionArray"]
    assert api.fails("GetItemsAwaitingFeedback", token="NOT-A-TOKEN") == 931


def dispute(api: Api) -> tuple[dict, str]:
    sale = api.sale()
    api.market.orders[sale["order"]].paid = False
    inner = f"<ItemID>{sale['item']}</ItemID><TransactionID>{sale['transaction']}</TransactionID><DisputeReason>BuyerHasNotPaid</DisputeReason><DisputeExplanation>BuyerHasNotResponded</DisputeExplanation>"
    return sale, str(api.ok("AddDispute", inner, SELLER)["DisputeID"])


@case("AddDispute")
def _(api: Api) -> None:
    sale, _ = dispute(api)
    again = f"<ItemID>{sale['item']}</ItemID><DisputeReason>BuyerHasNotPaid</DisputeReason><DisputeExplanation>x</DisputeExplanation>"
    assert api.fails("AddDispute", again, SELLER) == 21916158


@case("AddDisputeResponse", "GetDispute", "GetUserDisputes", "SellerReverseDispute")
def _(api: Api) -> None:
    _, dispute_id = dispute(api)
    assert api.ok("GetDispute", f"<DisputeID>{dispute_id}</DisputeID>", SELLER)["Dispute"]["DisputeState"] == "Open"
    assert api.ok("GetUserDisputes", "", SELLER)["DisputeArray"]["Dispute"]["DisputeID"] == int(dispute_id)
    api.ok(
        "AddDisputeResponse",
        f"<DisputeID>{dispute_id}</DisputeID><DisputeActivity>SellerComment</DisputeActivity><MessageText>Please pay</MessageText>",
        SELLER,
    )
    api.ok(
        "SellerReverseDispute",
        f"<DisputeID>{dispute_id}</DisputeID><DisputeResolutionReason>BuyerPaid</DisputeResolutionReason>",
        SELLER,
    )
    assert (
        api.fails(
            "SellerReverseDispute",
            f"<DisputeID>{dispute_id}</DisputeID><DisputeResolutionReason>x</DisputeResolutionReason>",
            SELLER,
        )
        == 21916160
    )
    assert (
        api.fails(
            "AddDisputeResponse",
            f"<DisputeID>{dispute_id}</DisputeID><DisputeActivity>SellerComment</DisputeActivity>",
            SELLER,
        )
        == 21916160
    )
    assert api.fails("GetDispute", "<DisputeID>1</DisputeID>", SELLER) == 21916157
    assert api.fails("GetUserDisputes", "<DisputeFilterType>Nope</DisputeFilterType>", SELLER) == 37


@case("DisableUnpaidItemAssistance")
def _(api: Api) -> None:
    sale = api.sale()
    api.ok("DisableUnpaidItemAssistance", f"<ItemID>{sale['item']}</ItemID>", SELLER)
    assert api.market.trading.extras[sale["item"]]["UnpaidItemAssistance"] is False
    assert api.fails("DisableUnpaidItemAssistance", f"<ItemID>{sale['item']}</ItemID>") == 21916624


@pytest.mark.parametrize("call", sorted(CASES))
def test_call_succeeds_and_fails_like_ebay(call):
    CASES[call](Api())
