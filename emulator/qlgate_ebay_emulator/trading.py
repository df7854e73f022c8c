"""The Trading API (``POST /ws/api.dll``): checks what eBay checks (call-name,
compatibility-level and site headers, the root element, the caller's
credentials, the application keys when sent, required fields) and answers every
failure as ``Ack`` Failure with an ``Errors`` block, never a crash.

Here is the request and its envelope. The calls' handlers are grouped by area,
each group in its own module and naming its calls in ``CALLS``: listings
(``trading_listing.py``), buying (``trading_buying.py``), orders and disputes
(``trading_orders.py``), feedback, messages, the Selling Manager, and the
site's and account's data (``trading_meta.py``, ``trading_account.py``), over
what they share in ``trading_common.py``.

A caller is identified as eBay does: ``RequesterCredentials/eBayAuthToken``
(Auth'n'Auth), the legacy ``RequesterCredentials/Username`` and ``Password``
(seed users with a password), or an OAuth user access token in the
``X-EBAY-API-IAF-TOKEN`` header. Anything else is refused with error 931.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from .state import Marketplace, User, stamp
from .trading_account import AccountCalls
from .trading_buying import BuyingCalls
from .trading_common import Failure
from .trading_feedback import FeedbackCalls
from .trading_listing import ListingCalls
from .trading_messages import MessageCalls
from .trading_meta import MetaCalls
from .trading_orders import OrderCalls
from .trading_promotions import PromotionCalls
from .trading_reference import ReferenceCalls
from .trading_sellerlist import SellerListCalls
from .trading_sellertools import SellerToolCalls
from .trading_sellingmanager import SellingManagerCalls
from .trading_templates import TemplateCalls
from .wire import TRADING_NS, BadRequest, get, parse_request, to_xml

BUILD = "E737_QLGATE_EMULATOR"

# calls an application makes for itself, before any user has a token: its keys authorise it
APPLICATION_CALLS = {"GetSessionID", "FetchToken"}

log = logging.getLogger(__name__)


class Trading(
    ListingCalls,
    SellerListCalls,
    BuyingCalls,
    OrderCalls,
    FeedbackCalls,
    MessageCalls,
    SellingManagerCalls,
    TemplateCalls,
    MetaCalls,
    AccountCalls,
    ReferenceCalls,
    PromotionCalls,
    SellerToolCalls,
):
    def __init__(self, market: Marketplace):
        self.market = market
        self.calls: dict[str, Callable[[User, dict], dict]] = {}
        for base in reversed(type(self).__mro__):
            for call, method in vars(base).get("CALLS", {}).items():
                self.calls[call] = getattr(self, method)

    def implemented(self) -> list[str]:
        return sorted(self.calls)

    # ---------------------------------------------------------------- the caller
    def caller(self, call: str, headers: dict[str, str], doc: dict) -> User:
        iaf = headers.get("x-ebay-api-iaf-token", "").strip()
        token = get(doc, "RequesterCredentials.eBayAuthToken")
        username = get(doc, "RequesterCredentials.Username")
        user: User | None = None
        if iaf:
            user = self.market.user_for_access_token(iaf.removeprefix("Bearer ").strip())
        elif token:
            user = self.market.user_for_token(token)
        elif username:
            user = self.market.user_for_password(username, get(doc, "RequesterCredentials.Password"))
        elif call in APPLICATION_CALLS and headers.get("x-ebay-api-app-name"):
            user = User("")  # the application itself; its name was checked against the registered ones
        if user is None:
            raise Failure(
                931, "Auth token is invalid.", "Validation of the authentication token in API request failed."
            )
        return user

    # ---------------------------------------------------------------- the request
    @staticmethod
    def internal(call: str, error: Exception) -> Failure:
        """An unexpected exception of a handler: logged with its traceback, answered as eBay
        answers its own faults (error 10007, a SystemError)."""
        log.error("the emulator's Trading call %s failed", call or "(none)", exc_info=error)
        return Failure(
            10007,
            "Internal error to the application.",
            f"Internal error to the application: the emulator failed on {call or 'the call'} ({type(error).__name__}).",
            classification="SystemError",
        )

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
            user = self.caller(call, headers, doc)
            handler = self.calls.get(call)
            if handler is None:
                raise Failure(
                    2, "Unsupported API call.", f"The API call {call} is not supported by the qlgate emulator."
                )
            fields = handler(user, doc)
            self.market.trading.usage[call] = self.market.trading.usage.get(call, 0) + 1
            envelope = {"Timestamp": stamp(), "Ack": "Success", "Version": version, "Build": BUILD, **fields}
        except Exception as error:  # noqa: BLE001 - a last resort: eBay's shape, never a bare 500
            failure = error if isinstance(error, Failure) else self.internal(call, error)
            envelope = {
                "Timestamp": stamp(),
                "Ack": "Failure",
                "Errors": failure.errors(),
                "Version": version,
                "Build": BUILD,
            }
        return call or "unknown", to_xml(f"{call or 'Unknown'}Response", TRADING_NS, envelope)
