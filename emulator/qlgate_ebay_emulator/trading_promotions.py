"""Trading calls for a seller's Store and promotions that ql.io's eBay tree has
tables for (``trading.py`` dispatches them): shipping discount profiles, Store
categories and their update task, a Store's custom pages, promotional sales and
their listings, seller payments, category mappings, VeRO report status and
Want It Now posts.

What a seller sets (profiles, categories, sales) is kept per seller and read back
by the Get call; the Want It Now posts and the custom page are sample data, made
up for the emulator and documented as such.
"""

from __future__ import annotations

from typing import Any, ClassVar

from .state import User, stamp
from .trading_common import Failure, TradingCalls, missing, need, number, scalar, texts
from .wire import as_list, get

# sample data (not eBay's)
WANT_IT_NOW = [
    {"PostID": "5001", "Title": "Wanted: blue kettle", "CategoryID": "20625", "Site": "US", "ResponseCount": 2},
    {"PostID": "5002", "Title": "Wanted: first edition novel", "CategoryID": "377", "Site": "US", "ResponseCount": 0},
]


class PromotionCalls(TradingCalls):
    CALLS: ClassVar[dict[str, str]] = {
        "SetShippingDiscountProfiles": "set_shipping_discount_profiles",
        "GetShippingDiscountProfiles": "get_shipping_discount_profiles",
        "SetStoreCategories": "set_store_categories",
        "GetStoreCategoryUpdateStatus": "get_store_category_update_status",
        "GetStoreCustomPage": "get_store_custom_page",
        "SetPromotionalSale": "set_promotional_sale",
        "GetPromotionalSaleDetails": "get_promotional_sale_details",
        "SetPromotionalSaleListings": "set_promotional_sale_listings",
        "GetSellerPayments": "get_seller_payments",
        "GetCategoryMappings": "get_category_mappings",
        "GetVeROReportStatus": "get_vero_report_status",
        "GetWantItNowSearchResults": "get_want_it_now_search_results",
        "GetWantItNowPost": "get_want_it_now_post",
    }

    def _kept(self, name: str) -> dict[str, Any]:
        """What the sellers set, by name and seller (lives as long as the marketplace)."""
        return self.__dict__.setdefault("_promotions", {}).setdefault(name, {})

    # ---------------------------------------------------------------- shipping discounts
    def set_shipping_discount_profiles(self, user: User, doc: dict) -> dict:
        need(doc, "ModifyActionCode")
        action = str(scalar(doc, "ModifyActionCode"))
        profiles = self._kept("shipping").setdefault(user.user_id, {})
        profile = get(doc, "FlatShippingDiscount.DiscountProfile") or get(
            doc, "CalculatedShippingDiscount.DiscountProfile"
        )
        if action == "Add":
            if not isinstance(profile, dict) or not profile.get("DiscountProfileName"):
                raise missing("DiscountProfile.DiscountProfileName")
            profile_id = str(len(profiles) + 1)
            profiles[profile_id] = {"DiscountProfileID": profile_id, **profile}
        elif action == "Delete":
            profile_id = str((profile or {}).get("DiscountProfileID", ""))
            if profiles.pop(profile_id, None) is None:
                raise Failure(21916760, "Invalid discount profile.", f"Profile {profile_id} does not exist.")
        else:
            raise Failure(
                37, "Input data is invalid.", f"ModifyActionCode {action} is not supported.", "ModifyActionCode"
            )
        return {}

    def get_shipping_discount_profiles(self, user: User, doc: dict) -> dict:
        profiles = list(self._kept("shipping").get(user.user_id, {}).values())
        return {"FlatShippingDiscount": {"DiscountProfile": profiles or None}, "CurrencyID": "USD"}

    # ---------------------------------------------------------------- the Store
    def set_store_categories(self, user: User, doc: dict) -> dict:
        need(doc, "Action", "StoreCategories")
        names = [c.get("Name") for c in as_list(get(doc, "StoreCategories.CustomCategory")) if isinstance(c, dict)]
        if not all(names) or not names:
            raise missing("StoreCategories.CustomCategory.Name")
        tasks = self._kept("store_tasks")
        task_id = str(len(tasks) + 1)
        tasks[task_id] = {"seller": user.user_id, "categories": names}
        return {"TaskID": task_id, "Status": "Complete"}

    def get_store_category_update_status(self, user: User, doc: dict) -> dict:
        need(doc, "TaskID")
        task = self._kept("store_tasks").get(str(scalar(doc, "TaskID")))
        if task is None or task["seller"] != user.user_id:
            raise Failure(13003, "Invalid task ID.", f"Task {scalar(doc, 'TaskID')} does not exist.", "TaskID")
        return {"Status": "Complete"}

    def get_store_custom_page(self, user: User, doc: dict) -> dict:
        page = {"Name": "About us", "PageID": 1, "Status": "Active", "Content": "<p>Sample page.</p>", "Order": 1}
        wanted = scalar(doc, "PageID")
        if wanted and str(wanted) != "1":
            raise Failure(13011, "Invalid page ID.", f"Page {wanted} does not exist.", "PageID")
        return {"CustomPageArray": {"CustomPage": [page]}}

    # ---------------------------------------------------------------- promotional sales
    def set_promotional_sale(self, user: User, doc: dict) -> dict:
        need(doc, "Action", "PromotionalSaleDetails.PromotionalSaleName")
        sales = self._kept("sales")
        sale_id = str(scalar(doc, "PromotionalSaleDetails.PromotionalSaleID") or len(sales) + 1)
        if str(scalar(doc, "Action")) == "Delete":
            if sales.pop(sale_id, None) is None:
                raise Failure(219266, "Invalid promotional sale.", f"Sale {sale_id} does not exist.")
            return {"Status": "Deleted"}
        sales[sale_id] = {
            "seller": user.user_id,
            "PromotionalSaleID": sale_id,
            "PromotionalSaleName": scalar(doc, "PromotionalSaleDetails.PromotionalSaleName"),
            "DiscountType": scalar(doc, "PromotionalSaleDetails.DiscountType", "Percentage"),
            "DiscountValue": scalar(doc, "PromotionalSaleDetails.DiscountValue", 0),
            "PromotionalSaleItemIDArray": {"ItemID": []},
            "Status": "Scheduled",
        }
        return {"PromotionalSaleID": sale_id, "Status": "Scheduled"}

    def _promotion(self, user: User, sale_id: Any) -> dict:
        sale = self._kept("sales").get(str(sale_id))
        if sale is None or sale["seller"] != user.user_id:
            raise Failure(219266, "Invalid promotional sale.", f"Sale {sale_id} does not exist.", "PromotionalSaleID")
        return sale

    def get_promotional_sale_details(self, user: User, doc: dict) -> dict:
        wanted = scalar(doc, "PromotionalSaleID")
        sales = (
            [self._promotion(user, wanted)]
            if wanted
            else [s for s in self._kept("sales").values() if s["seller"] == user.user_id]
        )
        shown = [{k: v for k, v in s.items() if k != "seller"} for s in sales]
        return {"PromotionalSaleDetails": {"PromotionalSale": shown or None}}

    def set_promotional_sale_listings(self, user: User, doc: dict) -> dict:
        need(doc, "PromotionalSaleID", "Action")
        sale = self._promotion(user, scalar(doc, "PromotionalSaleID"))
        items = texts(get(doc, "PromotionalSaleItemIDArray.ItemID"))
        if not items:
            raise missing("PromotionalSaleItemIDArray.ItemID")
        for item_id in items:
            self._own(user, item_id)
        listed = sale["PromotionalSaleItemIDArray"]["ItemID"]
        if str(scalar(doc, "Action")) == "Delete":
            sale["PromotionalSaleItemIDArray"]["ItemID"] = [i for i in listed if i not in items]
        else:
            listed.extend(i for i in items if i not in listed)
        return {"Status": "Active"}

    # ---------------------------------------------------------------- the rest
    def get_seller_payments(self, user: User, doc: dict) -> dict:
        need(doc, "PaymentStatus")
        number(scalar(doc, "Pagination.EntriesPerPage"), "Pagination.EntriesPerPage", 25)
        return {"SellerPayment": None, "PaginationResult": {"TotalNumberOfPages": 0, "TotalNumberOfEntries": 0}}

    def get_category_mappings(self, user: User, doc: dict) -> dict:
        return {"CategoryMapping": None, "CategoryVersion": "1", "LastUpdateTime": stamp()}

    def get_vero_report_status(self, user: User, doc: dict) -> dict:
        packet = scalar(doc, "VeROReportPacketID")
        if packet:
            raise Failure(21916600, "Invalid packet ID.", f"VeRO report packet {packet} does not exist.")
        return {"VeROReportPacketID": None, "ReportedItemDetails": None}

    def get_want_it_now_search_results(self, user: User, doc: dict) -> dict:
        query = str(scalar(doc, "Query", "") or "").lower()
        category = scalar(doc, "CategoryID")
        if not query and not category:
            raise missing("Query")
        posts = [
            p
            for p in WANT_IT_NOW
            if query in str(p["Title"]).lower() and (not category or p["CategoryID"] == str(category))
        ]
        return {"WantItNowPostArray": {"WantItNowPost": posts or None}, "HasMoreItems": False}

    def get_want_it_now_post(self, user: User, doc: dict) -> dict:
        need(doc, "PostID")
        post = next((p for p in WANT_IT_NOW if p["PostID"] == str(scalar(doc, "PostID"))), None)
        if post is None:
            raise Failure(21916900, "Invalid post.", f"Post {scalar(doc, 'PostID')} does not exist.", "PostID")
        return {"WantItNowPost": {**post, "Description": "Sample post.", "StartTime": "2012-10-01T10:00:00.000Z"}}
