"""The Trading API (``POST /ws/api.dll``): checks what eBay checks (call-name,
compatibility-level and site headers, the root element, the auth token, the
application keys when sent, required fields) and answers every failure as
``Ack`` Failure with an ``Errors`` block, never a crash.

Here is the request and its envelope; the calls' handlers are grouped by who
makes them, the seller's in ``trading_selling.py`` and the buyer's in
``trading_buying.py``, over what they share in ``trading_common.py``.
"""

from __future__ import annotations

from collections.abc import Callable

from .state import Marketplace, User, stamp
from .trading_buying import BuyingCalls
from .trading_common import Failure
from .trading_selling import SellingCalls
from .wire import TRADING_NS, BadRequest, get, parse_request, to_xml

BUILD = "E737_QLGATE_EMULATOR"


class Trading(SellingCalls, BuyingCalls):
    def __init__(self, market: Marketplace):
        self.market = market
        self.calls: dict[str, Callable[[User, dict], dict]] = {
            "GeteBayOfficialTime": lambda user, doc: {},
            "GetUser": self.get_user,
            "AddItem": self.add_item,
            "AddFixedPriceItem": self.add_item,
            "VerifyAddItem": lambda user, doc: self.add_item(user, doc, store=False),
            "VerifyAddFixedPriceItem": lambda user, doc: self.add_item(user, doc, store=False),
            "ReviseItem": self.revise_item,
            "EndItem": self.end_item,
            "GetItem": self.get_item,
            "GetSellerList": self.get_seller_list,
            "PlaceOffer": self.place_offer,
            "AddToWatchList": self.add_to_watch_list,
            "RemoveFromWatchList": self.remove_from_watch_list,
            "GetMyeBayBuying": self.get_my_ebay_buying,
            "AddSellingManagerProduct": self.add_product,
            "DeleteSellingManagerProduct": self.delete_product,
            "GetSellingManagerInventory": self.get_inventory,
        }

    # ---------------------------------------------------------------- the request
    def handle(self, headers: dict[str, str], body: bytes) -> tuple[str, str]:
        """(call name, response XML) for one request."""
        call = headers.get("x-ebay-api-call-name", "")
        version = headers.get("x-ebay-api-compatibility-level", "737")
        try:
            if not call:
                raise Failure(2, "Unsupported API call.", "The API call is missing: send X-EBAY-API-CALL-NAME.")
            if "x-ebay-api-compatibility-level" not in headers:
                raise Failure(
                    10006, "Missing compatibility level.", "Header X-EBAY-API-COMPATIBILITY-LEVEL is required."
                )
            if "x-ebay-api-siteid" not in headers:
                raise Failure(10007, "Missing site id.", "Header X-EBAY-API-SITEID is required.")
            app = headers.get("x-ebay-api-app-name")
            if app is not None and app not in self.market.applications:
                raise Failure(
                    10017,
                    "Invalid application name.",
                    f"Application {app!r} is not registered.",
                    classification="RequestError",
                )
            try:
                root, doc = parse_request(body)
            except BadRequest as e:
                raise Failure(5, "XML Parse error.", str(e)) from None
            if root != call + "Request":
                raise Failure(
                    10012,
                    "Invalid request.",
                    f"The root element {root} does not match the call {call} (expected {call}Request).",
                )
            user = self.market.user_for_token(get(doc, "RequesterCredentials.eBayAuthToken"))
            if user is None:
                raise Failure(
                    931, "Auth token is invalid.", "Validation of the authentication token in API request failed."
                )
            handler = self.calls.get(call)
            if handler is None:
                raise Failure(
                    2, "Unsupported API call.", f"The API call {call} is not supported by the qlgate emulator."
                )
            fields = handler(user, doc)
            envelope = {"Timestamp": stamp(), "Ack": "Success", "Version": version, "Build": BUILD, **fields}
        except Failure as failure:
            envelope = {
                "Timestamp": stamp(),
                "Ack": "Failure",
                "Errors": failure.errors(),
                "Version": version,
                "Build": BUILD,
            }
        return call or "unknown", to_xml(f"{call or 'Unknown'}Response", TRADING_NS, envelope)
