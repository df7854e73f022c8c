"""The Trading API's account calls (``trading.py`` dispatches them): users,
tokens and the Auth'n'Auth sign-in (GetSessionID, FetchToken), a user's
preferences, notification settings and notes, the eBay Store, pictures, and
My eBay's reminders.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any, ClassVar

from .state import User, now, stamp
from .trading_common import Failure, TradingCalls, flag, missing, need, need_one, scalar, texts
from .wire import get

PREFERENCE_GROUPS = (
    "BidderNoticePreferences",
    "CombinedPaymentPreferences",
    "SellerPaymentPreferences",
    "SellerFavoriteItemPreferences",
    "EndOfAuctionEmailPreferences",
    "EmailShipmentTrackingNumberPreference",
    "RequiredShipPhoneNumberPreference",
    "UnpaidItemAssistancePreferences",
    "PurchaseReminderEmailPreferences",
    "DispatchCutoffTimePreference",
)
NOTIFICATION_PARTS = (
    "ApplicationDeliveryPreferences",
    "UserDeliveryPreferenceArray",
    "UserData",
    "EventProperty",
    "DeliveryURLName",
)
LEVELS = {
    "Application": "ApplicationDeliveryPreferences",
    "User": "UserDeliveryPreferenceArray",
    "UserData": "UserData",
    "Event": "EventProperty",
}


class AccountCalls(TradingCalls):
    CALLS: ClassVar[dict[str, str]] = {
        "GetUser": "get_user",
        "GetTokenStatus": "get_token_status",
        "GetSessionID": "get_session_id",
        "FetchToken": "fetch_token",
        "GetClientAlertsAuthToken": "get_client_alerts_auth_token",
        "GetUserPreferences": "get_user_preferences",
        "SetUserPreferences": "set_user_preferences",
        "GetNotificationPreferences": "get_notification_preferences",
        "SetNotificationPreferences": "set_notification_preferences",
        "GetNotificationsUsage": "get_notifications_usage",
        "SetUserNotes": "set_user_notes",
        "GetStore": "get_store",
        "SetStore": "set_store",
        "GetStorePreferences": "get_store_preferences",
        "SetStorePreferences": "set_store_preferences",
        "UploadSiteHostedPictures": "upload_site_hosted_pictures",
        "GetMyeBayReminders": "get_my_ebay_reminders",
    }

    # ---------------------------------------------------------------- users and tokens
    def get_user(self, user: User, doc: dict) -> dict:
        target = self.market.user(str(scalar(doc, "UserID") or user.user_id))
        if target is None:
            raise Failure(21, "Invalid UserID.", "The user does not exist.", "UserID")
        selling = sum(i.seller == target.user_id and i.active for i in self.market.items.values())
        return {
            "User": {
                "FeedbackScore": target.feedback,
                "Status": "Confirmed",
                "UserID": target.user_id,
                "Site": "US",
                "Email": f"{target.user_id}@example.com" if target is user else "Invalid Request",
                "RegistrationDate": "2012-01-01T00:00:00.000Z",
                "FeedbackPrivate": False,
                "SellerInfo": {"StoreOwner": target.user_id in self.market.trading.stores, "ActiveListings": selling}
                if selling or target.user_id in self.market.trading.stores
                else None,
            }
        }

    def _expiry(self, token: str) -> str:
        return self.market.trading.token_expiry.setdefault(token, stamp(now() + timedelta(days=540)))

    def get_token_status(self, user: User, doc: dict) -> dict:
        if not user.token:
            raise Failure(
                21916014, "No token.", "This call was authorised without an Auth'n'Auth token: nothing to report."
            )
        return {
            "TokenStatus": {
                "Status": "Active",
                "EIASToken": f"nY+{user.user_id}",
                "ExpirationTime": self._expiry(user.token),
            }
        }

    def get_session_id(self, user: User, doc: dict) -> dict:
        need(doc, "RuName")
        session_id = secrets.token_urlsafe(24)
        self.market.trading.sessions[session_id] = None
        return {"SessionID": session_id}

    def fetch_token(self, user: User, doc: dict) -> dict:
        need(doc, "SessionID")
        session_id = str(scalar(doc, "SessionID"))
        if session_id not in self.market.trading.sessions:
            raise Failure(21916016, "Invalid session.", "The SessionID does not exist or has expired.", "SessionID")
        user_id = self.market.trading.sessions[session_id]
        if user_id is None:
            raise Failure(
                21916017,
                "Sign-in not completed.",
                "The user has not signed in and agreed for this session yet.",
                "SessionID",
            )
        token = "v^1.1#" + secrets.token_urlsafe(32)
        self.market.tokens[token] = user_id
        del self.market.trading.sessions[session_id]  # a session gives one token
        return {"eBayAuthToken": token, "HardExpirationTime": self._expiry(token)}

    def get_client_alerts_auth_token(self, user: User, doc: dict) -> dict:
        return {
            "ClientAlertsAuthToken": secrets.token_urlsafe(24),
            "HardExpirationTime": stamp(now() + timedelta(days=1)),
        }

    # ---------------------------------------------------------------- preferences
    def get_user_preferences(self, user: User, doc: dict) -> dict:
        stored = self.market.trading.user_preferences.get(user.user_id, {})
        out: dict[str, Any] = {}
        for group in PREFERENCE_GROUPS:
            base = group.removesuffix("s")
            if any(flag(scalar(doc, f"Show{name}")) for name in (base, base + "s")):
                out[group] = stored.get(group, {})
        if not out:
            raise Failure(37, "Input data is invalid.", "Ask for at least one preference (Show…Preferences).")
        return out

    def set_user_preferences(self, user: User, doc: dict) -> dict:
        need_one(doc, *PREFERENCE_GROUPS)
        stored = self.market.trading.user_preferences.setdefault(user.user_id, {})
        for group in PREFERENCE_GROUPS:
            if get(doc, group) not in (None, ""):
                stored[group] = get(doc, group)
        return {}

    def get_notification_preferences(self, user: User, doc: dict) -> dict:
        need(doc, "PreferenceLevel")
        level = str(scalar(doc, "PreferenceLevel"))
        if level not in LEVELS:
            raise Failure(37, "Input data is invalid.", f"PreferenceLevel {level} is not valid.", "PreferenceLevel")
        stored = self.market.trading.notification_preferences.get(user.user_id, {})
        part = LEVELS[level]
        return {part: stored.get(part)}

    def set_notification_preferences(self, user: User, doc: dict) -> dict:
        need_one(doc, *NOTIFICATION_PARTS)
        events = get(doc, "UserDeliveryPreferenceArray.NotificationEnable")
        for event in events if isinstance(events, list) else [events] if events else []:
            if (
                not isinstance(event, dict)
                or event.get("EventEnable") not in ("Enable", "Disable")
                or not event.get("EventType")
            ):
                raise missing("UserDeliveryPreferenceArray.NotificationEnable.EventEnable")
        stored = self.market.trading.notification_preferences.setdefault(user.user_id, {})
        for part in NOTIFICATION_PARTS:
            if get(doc, part) not in (None, ""):
                stored[part] = get(doc, part)
        return {}

    def get_notifications_usage(self, user: User, doc: dict) -> dict:
        if scalar(doc, "ItemID"):
            self._item(scalar(doc, "ItemID"))
        enabled = self.market.trading.notification_preferences.get(user.user_id, {})
        return {
            "StartTime": scalar(doc, "StartTime") or stamp(now() - timedelta(days=1)),
            "EndTime": scalar(doc, "EndTime") or stamp(),
            "NotificationDetailsArray": None,
            "MarkUpMarkDownHistory": None,
            "NotificationStatistics": {
                "DeliveredCount": 0,
                "QueuedNewCount": 0,
                "QueuedPendingCount": 0,
                "ExpiredCount": 0,
                "ErrorCount": 0,
            }
            if enabled
            else None,
        }

    def set_user_notes(self, user: User, doc: dict) -> dict:
        need(doc, "Action", "ItemID")
        item = self._item(scalar(doc, "ItemID"))
        action = scalar(doc, "Action")
        key = (user.user_id, item.item_id)
        if action == "AddOrUpdate":
            need(doc, "NoteText")
            self.market.trading.notes[key] = str(scalar(doc, "NoteText"))
        elif action == "Delete":
            if key not in self.market.trading.notes:
                raise Failure(21916190, "No note.", f"You have no note on item {item.item_id}.", "ItemID")
            del self.market.trading.notes[key]
        else:
            raise missing("Action")
        return {}

    # ---------------------------------------------------------------- the store
    def get_store(self, user: User, doc: dict) -> dict:
        owner = str(scalar(doc, "UserID") or user.user_id)
        store = self.market.trading.stores.get(owner)
        if store is None:
            raise Failure(13003, "No store.", f"User {owner} does not have an eBay Store.", "UserID")
        return {"Store": store}

    def set_store(self, user: User, doc: dict) -> dict:
        need(doc, "Store")
        given = get(doc, "Store")
        if not isinstance(given, dict):
            raise missing("Store")
        store = self.market.trading.stores.setdefault(user.user_id, {"Name": f"{user.user_id}'s store"})
        if given.get("Name") is not None and not str(given["Name"]).strip():
            raise Failure(13004, "Invalid store name.", "A store name must not be empty.", "Store.Name")
        store.update({k: v for k, v in given.items() if v not in (None, "")})
        store.setdefault("URLPath", user.user_id.replace(".", "-"))
        store["URL"] = f"https://stores.ebay.com/{store['URLPath']}"
        return {}

    def get_store_preferences(self, user: User, doc: dict) -> dict:
        if user.user_id not in self.market.trading.stores:
            raise Failure(13003, "No store.", "You do not have an eBay Store.")
        return {
            "StorePreferences": self.market.trading.stores[user.user_id].get(
                "Preferences", {"VacationPreferences": {"OnVacation": False}}
            )
        }

    def set_store_preferences(self, user: User, doc: dict) -> dict:
        need(doc, "StorePreferences")
        if user.user_id not in self.market.trading.stores:
            raise Failure(13003, "No store.", "You do not have an eBay Store.")
        self.market.trading.stores[user.user_id]["Preferences"] = get(doc, "StorePreferences")
        return {}

    # ---------------------------------------------------------------- pictures and reminders
    def upload_site_hosted_pictures(self, user: User, doc: dict) -> dict:
        urls = texts(get(doc, "ExternalPictureURL"))
        if not urls:
            raise Failure(
                37,
                "Input data is invalid.",
                "Give ExternalPictureURL (binary attachments are not emulated).",
                "ExternalPictureURL",
            )
        if not urls[0].startswith(("http://", "https://")):
            raise Failure(10012, "Invalid picture URL.", f"{urls[0]} is not an http(s) URL.", "ExternalPictureURL")
        number = len(self.market.trading.pictures) + 1
        full = f"https://i.ebayimg.com/00/s/emulated/{number}/$_1.JPG"
        self.market.trading.pictures.append(urls[0])
        return {
            "PictureSystemVersion": 2,
            "SiteHostedPictureDetails": {
                "PictureName": scalar(doc, "PictureName"),
                "PictureSet": scalar(doc, "PictureSet") or "Standard",
                "PictureFormat": "JPG",
                "FullURL": full,
                "BaseURL": full.rsplit("$", 1)[0],
                "ExternalPictureURL": urls[0],
                "UseByDate": stamp(now() + timedelta(days=30)),
            },
        }

    def get_my_ebay_reminders(self, user: User, doc: dict) -> dict:
        bought = self.market.orders_of(buyer=user.user_id)
        sold = self.market.orders_of(seller=user.user_id)
        left = {(f.commenter, f.transaction_id) for f in self.market.trading.feedback}
        return {
            "BuyingReminders": {
                "PaymentToSendCount": sum(not o.paid for o in bought),
                "FeedbackToSendCount": sum(
                    (user.user_id, li.line_item_id) not in left for o in bought for li in o.line_items
                ),
            },
            "SellingReminders": {
                "PaymentToReceiveCount": sum(not o.paid for o in sold),
                "ItemsToShipCount": sum(o.paid and not o.shipments for o in sold),
                "FeedbackToSendCount": sum(
                    (user.user_id, li.line_item_id) not in left for o in sold for li in o.line_items
                ),
                "NewBestOfferCount": sum(
                    o.status == "Pending" and self.market.items[o.item_id].seller == user.user_id
                    for o in self.market.trading.best_offers.values()
                ),
            },
        }
