"""An in-process Trading API of the emulator for the tests/sandbox/test_trading_*
tests: a fresh marketplace, a call by name with a request body, the answer as
JSON, and the usual fixtures of a seller's day (a listing, a sale, a product…)."""

from __future__ import annotations

from typing import Any

from qlgate.http.xml import xml_to_json
from qlgate_ebay_emulator.state import Marketplace
from qlgate_ebay_emulator.trading import Trading

BUYER, SELLER = "TEST-TOKEN", "SELLER-AUTH-TOKEN-HERE"
BUYER_ID, SELLER_ID = "testuser_bountifulbuyer", "testuser_magicalbookseller"


def item_xml(title: str = "Blue Kettle", price: str = "10.00", kind: str = "Chinese", extra: str = "") -> str:
    return (
        f"<Item><Title>{title}</Title><Description>A kettle.</Description>"
        "<PrimaryCategory><CategoryID>20625</CategoryID></PrimaryCategory>"
        f"<StartPrice>{price}</StartPrice><Currency>USD</Currency><Country>US</Country><PostalCode>95125</PostalCode>"
        f"<ListingDuration>Days_7</ListingDuration><ListingType>{kind}</ListingType>{extra}</Item>"
    )


class Api:
    def __init__(self) -> None:
        self.market = Marketplace()
        self.trading = Trading(self.market)

    def __call__(
        self,
        call: str,
        inner: str = "",
        token: str | None = BUYER,
        headers: dict | None = None,
        body: str | None = None,
    ) -> dict[str, Any]:
        creds = f"<RequesterCredentials><eBayAuthToken>{token}</eBayAuthToken></RequesterCredentials>" if token else ""
        text = body or f'<{call}Request xmlns="urn:ebay:apis:eBLBaseComponents">{creds}{inner}</{call}Request>'
        hdrs = {
            "x-ebay-api-call-name": call,
            "x-ebay-api-compatibility-level": "737",
            "x-ebay-api-siteid": "0",
            **{k.lower(): v for k, v in (headers or {}).items()},
        }
        _, xml = self.trading.handle(hdrs, text.encode())
        return xml_to_json(xml)[f"{call}Response"]

    def ok(self, call: str, inner: str = "", token: str | None = BUYER, **kw: Any) -> dict[str, Any]:
        answer = self(call, inner, token, **kw)
        assert answer["Ack"] == "Success", answer.get("Errors")
        return answer

    def fails(self, call: str, inner: str = "", token: str | None = BUYER, **kw: Any) -> int:
        answer = self(call, inner, token, **kw)
        assert answer["Ack"] == "Failure", answer
        errors = answer["Errors"]
        return int((errors[0] if isinstance(errors, list) else errors)["ErrorCode"])

    # ---------------------------------------------------------------- a seller's day
    def auction(self, title: str = "Blue Kettle") -> str:
        return str(self.ok("AddItem", item_xml(title), SELLER)["ItemID"])

    def fixed(self, quantity: int = 5, best_offer: bool = True, sku: str = "KET-1") -> str:
        extra = f"<Quantity>{quantity}</Quantity><SKU>{sku}</SKU>"
        if best_offer:
            extra += "<BestOfferDetails><BestOfferEnabled>true</BestOfferEnabled></BestOfferDetails>"
        return str(
            self.ok("AddFixedPriceItem", item_xml("Red Kettle", "20.00", "FixedPriceItem", extra), SELLER)["ItemID"]
        )

    def buy(self, item_id: str, quantity: int = 1) -> dict[str, Any]:
        answer = self.ok(
            "PlaceOffer",
            f"<EndUserIP>1.2.3.4</EndUserIP><Offer><Action>Purchase</Action><MaxBid>20.00</MaxBid>"
            f"<Quantity>{quantity}</Quantity></Offer><ItemID>{item_id}</ItemID>",
        )
        return {
            "item": item_id,
            "transaction": str(answer["TransactionID"]),
            "line": answer["OrderLineItemID"],
            "order": next(o.order_id for o in self.market.orders.values() if o.line_items[-1].item_id == item_id),
        }

    def sale(self) -> dict[str, Any]:
        return self.buy(self.fixed())

    def product(self) -> str:
        answer = self.ok(
            "AddSellingManagerProduct",
            "<SellingManagerProductDetails><ProductName>Kettles</ProductName><QuantityAvailable>3</QuantityAvailable>"
            "<FolderID>4651612545</FolderID></SellingManagerProductDetails>",
            SELLER,
        )
        return str(answer["SellingManagerProductDetails"]["ProductID"])
