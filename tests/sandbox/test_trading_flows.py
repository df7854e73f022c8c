"""A seller's and a buyer's day through the emulator's Trading calls, across
calls and over one shared state: list → revise → end → relist; buy → orders →
ship (and Fulfillment sees it); an auction won; feedback; best offers;
messages; and who may call at all (token, Username/Password, OAuth IAF token)."""

from __future__ import annotations

import time

from .trading_harness import BUYER_ID, SELLER, SELLER_ID, Api, item_xml


def test_list_revise_end_relist():
    api = Api()
    item_id = api.auction()
    api.ok("ReviseItem", f"<Item><ItemID>{item_id}</ItemID><StartPrice>12.00</StartPrice></Item>", SELLER)
    assert api.ok("GetItem", f"<ItemID>{item_id}</ItemID>")["Item"]["StartPrice"]["$t"] == 12.0
    active = api.ok("GetMyeBaySelling", "", SELLER)["ActiveList"]["ItemArray"]["Item"]
    assert item_id in [str(i["ItemID"]) for i in (active if isinstance(active, list) else [active])]
    api.ok("EndItem", f"<ItemID>{item_id}</ItemID><EndingReason>NotAvailable</EndingReason>", SELLER)
    assert api.fails("ReviseItem", f"<Item><ItemID>{item_id}</ItemID><Title>x</Title></Item>", SELLER) == 291
    unsold = api.ok("GetMyeBaySelling", "", SELLER)["UnsoldList"]["ItemArray"]["Item"]
    assert item_id in [str(i["ItemID"]) for i in (unsold if isinstance(unsold, list) else [unsold])]
    new_id = str(api.ok("RelistItem", f"<Item><ItemID>{item_id}</ItemID></Item>", SELLER)["ItemID"])
    relisted = api.ok("GetItem", f"<ItemID>{new_id}</ItemID>")["Item"]
    assert (relisted["Title"], relisted["StartPrice"]["$t"], relisted["SellingStatus"]["ListingStatus"]) == (
        "Blue Kettle",
        12.0,
        "Active",
    )


def test_buy_then_orders_then_complete_sale_shipped():
    api = Api()
    sale = api.sale()
    order = api.ok("GetOrders", "<NumberOfDays>1</NumberOfDays>", SELLER)["OrderArray"]["Order"]
    assert (order["OrderID"], order["OrderStatus"], order["OrderFulfillmentStatus"]) == (
        sale["order"],
        "Completed",
        "NOT_STARTED",
    )
    bought = api.ok("GetOrders", "<NumberOfDays>1</NumberOfDays><OrderRole>Buyer</OrderRole>")["OrderArray"]["Order"]
    assert bought["SellerUserID"] == SELLER_ID
    api.ok(
        "CompleteSale",
        f"<OrderLineItemID>{sale['line']}</OrderLineItemID><Shipped>true</Shipped>"
        "<Shipment><ShipmentTrackingDetails><ShippingCarrierUsed>UPS</ShippingCarrierUsed>"
        "<ShipmentTrackingNumber>1Z999</ShipmentTrackingNumber></ShipmentTrackingDetails></Shipment>",
        SELLER,
    )
    shipped = api.ok("GetOrders", f"<OrderIDArray><OrderID>{sale['order']}</OrderID></OrderIDArray>", SELLER)
    details = shipped["OrderArray"]["Order"]
    assert details["OrderFulfillmentStatus"] == "FULFILLED" and details["ShippedTime"]
    tracking = details["ShippingDetails"]["ShipmentTrackingDetails"]
    assert (tracking["ShippingCarrierUsed"], str(tracking["ShipmentTrackingNumber"])) == ("UPS", "1Z999")
    # the REST Fulfillment API reads the same orders
    assert [o.status for o in api.market.orders_of(seller=SELLER_ID)] == ["FULFILLED"]
    assert api.market.items[sale["item"]].quantity_sold == 1


def test_an_auction_won_becomes_an_order():
    api = Api()
    item_id = api.auction()
    bid = f"<EndUserIP>1</EndUserIP><Offer><Action>Bid</Action><MaxBid>30</MaxBid><Quantity>1</Quantity></Offer><ItemID>{item_id}</ItemID>"
    assert api.ok("PlaceOffer", bid)["SellingStatus"]["HighBidder"]["UserID"] == BUYER_ID
    api.ok("EndItem", f"<ItemID>{item_id}</ItemID><EndingReason>NotAvailable</EndingReason>", SELLER)
    won = api.ok("GetMyeBayBuying")["WonList"]["OrderTransactionArray"]["OrderTransaction"]["Transaction"]
    assert (str(won["Item"]["ItemID"]), won["TransactionPrice"]["$t"]) == (item_id, 10.0)
    transactions = api.ok("GetItemTransactions", f"<ItemID>{item_id}</ItemID>", SELLER)["TransactionArray"]
    assert transactions["Transaction"]["Buyer"]["UserID"] == BUYER_ID


def test_feedback_left_is_read_back_and_answered():
    api = Api()
    sale = api.sale()
    awaiting = api.ok("GetItemsAwaitingFeedback")["ItemsAwaitingFeedback"]["PaginationResult"]["TotalNumberOfEntries"]
    inner = (
        f"<OrderLineItemID>{sale['line']}</OrderLineItemID><CommentText>Fast, as described</CommentText>"
        f"<CommentType>Positive</CommentType><TargetUser>{SELLER_ID}</TargetUser>"
    )
    feedback_id = api.ok("LeaveFeedback", inner)["FeedbackID"]
    after = api.ok("GetItemsAwaitingFeedback")["ItemsAwaitingFeedback"]["PaginationResult"]["TotalNumberOfEntries"]
    assert after == awaiting - 1
    received = api.ok("GetFeedback", "<FeedbackType>FeedbackReceivedAsSeller</FeedbackType>", SELLER)
    assert received["FeedbackDetailArray"]["FeedbackDetail"]["FeedbackID"] == feedback_id
    assert received["FeedbackScore"] == 153
    api.ok(
        "RespondToFeedback",
        f"<FeedbackID>{feedback_id}</FeedbackID><ResponseType>Reply</ResponseType>"
        f"<ResponseText>Thank you!</ResponseText><TargetUserID>{BUYER_ID}</TargetUserID>",
        SELLER,
    )
    detail = api.ok("GetFeedback", f"<UserID>{SELLER_ID}</UserID>")["FeedbackDetailArray"]["FeedbackDetail"]
    assert detail["FeedbackResponse"] == "Thank you!"


def test_best_offer_countered_then_another_accepted():
    api = Api()
    item_id = api.fixed(quantity=1)
    offer = f"<EndUserIP>1</EndUserIP><Offer><Action>Offer</Action><MaxBid>PRICE</MaxBid><Quantity>1</Quantity></Offer><ItemID>{item_id}</ItemID>"
    low = str(api.ok("PlaceOffer", offer.replace("PRICE", "12"))["BestOffer"])
    api.ok(
        "RespondToBestOffer",
        f"<ItemID>{item_id}</ItemID><BestOfferID>{low}</BestOfferID><Action>Counter</Action><CounterOfferPrice>17</CounterOfferPrice>",
        SELLER,
    )
    mine = api.ok("GetBestOffers", f"<BestOfferID>{low}</BestOfferID>")["ItemBestOffersArray"]["ItemBestOffers"]
    assert mine["BestOfferArray"]["BestOffer"]["Status"] == "Countered"
    better = str(api.ok("PlaceOffer", offer.replace("PRICE", "17"))["BestOffer"])
    api.ok(
        "RespondToBestOffer",
        f"<ItemID>{item_id}</ItemID><BestOfferID>{better}</BestOfferID><Action>Accept</Action>",
        SELLER,
    )
    assert not api.market.items[item_id].active  # the only one, sold
    assert [li.price for o in api.market.orders_of(buyer=BUYER_ID) for li in o.line_items] == [17.0]
    assert api.fails("PlaceOffer", offer.replace("PRICE", "18")) == 12302


def test_a_question_answered_and_filed():
    api = Api()
    sale = api.sale()
    api.ok(
        "AddMemberMessageAAQToPartner",
        f"<ItemID>{sale['item']}</ItemID><MemberMessage><Subject>Shipping</Subject><Body>When will it ship?</Body>"
        f"<QuestionType>Shipping</QuestionType><RecipientID>{SELLER_ID}</RecipientID></MemberMessage>",
    )
    inbox = api.ok("GetMyMessages", "<DetailLevel>ReturnHeaders</DetailLevel>", SELLER)["Messages"]["Message"]
    question = str(inbox["MessageID"])
    api.ok(
        "AddMemberMessageRTQ",
        f"<ItemID>{sale['item']}</ItemID><MemberMessage><Body>Tomorrow.</Body><ParentMessageID>{question}</ParentMessageID>"
        f"<RecipientID>{BUYER_ID}</RecipientID></MemberMessage>",
        SELLER,
    )
    exchange = api.ok("GetMemberMessages", f"<MailMessageType>All</MailMessageType><ItemID>{sale['item']}</ItemID>")
    assert exchange["MemberMessage"]["MemberMessageExchange"]["Response"] == "Tomorrow."
    answer = api.ok("GetMyMessages", "<DetailLevel>ReturnMessages</DetailLevel>")["Messages"]["Message"]
    answer = answer if isinstance(answer, dict) else answer[-1]
    assert answer["Text"] == "Tomorrow." and answer["Sender"] == SELLER_ID
    api.ok("ReviseMyMessagesFolders", "<Operation>Display</Operation><FolderName>Answered</FolderName>", SELLER)
    api.ok(
        "ReviseMyMessages", f"<MessageIDs><MessageID>{question}</MessageID></MessageIDs><FolderID>10</FolderID>", SELLER
    )
    assert api.ok("GetMyMessages", "<DetailLevel>ReturnHeaders</DetailLevel><FolderID>10</FolderID>", SELLER)[
        "Messages"
    ]
    assert api.fails("ReviseMyMessagesFolders", "<Operation>Remove</Operation><FolderID>10</FolderID>", SELLER) == 20165


def test_who_may_call():
    api = Api()

    def body(creds: str) -> str:
        return f'<GetUserRequest xmlns="urn:ebay:apis:eBLBaseComponents">{creds}</GetUserRequest>'

    password = "<RequesterCredentials><Username>ql.io-test1</Username><Password>ebay</Password></RequesterCredentials>"
    assert api.ok("GetUser", body=body(password), token=None)["User"]["UserID"] == "ql.io-test1"
    assert api.fails("GetUser", body=body(password.replace(">ebay<", ">nope<")), token=None) == 931
    assert (
        api.fails(
            "GetUser",
            body=body(
                "<RequesterCredentials><Username>testuser_bountifulbuyer</Username><Password>x</Password></RequesterCredentials>"
            ),
            token=None,
        )
        == 931
    )
    sample = next(t for t, u in api.market.tokens.items() if t.startswith("AgAAAA**AQAAAA**aAAAAA**HQ7MTw**"))
    assert api.ok("GetUser", token=sample)["User"]["UserID"] == BUYER_ID
    api.market.access_tokens["v^1.1#oauth-user"] = (SELLER_ID, time.time() + 60)
    api.market.access_tokens["v^1.1#expired"] = (SELLER_ID, time.time() - 1)
    iaf = {"X-EBAY-API-IAF-TOKEN": "v^1.1#oauth-user"}
    assert api.ok("GetUser", token=None, headers=iaf)["User"]["UserID"] == SELLER_ID
    assert api.fails("GetUser", token=None, headers={"X-EBAY-API-IAF-TOKEN": "v^1.1#expired"}) == 931
    assert api.fails("GetUser", token=None) == 931
    assert api.fails("AddItem", item_xml(), token="AgAAAA**made-up") == 931
