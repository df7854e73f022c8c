"""The last Trading calls of the catalog that ql.io's eBay tree has tables for
(``trading.py`` dispatches them): ad-format leads, cross-promotions and their rules,
item recommendations, a refund on a sale, Picture Manager settings, and eBay's old
item-attribute calls (GetAttributesCS, GetAttributesXSL, GetCategory2CS).

Cross-promotions and recommendations are drawn from the marketplace's own items;
the attribute sets and the XSL are sample data, made up for the emulator and
documented as such (eBay retired those calls long ago).
"""

from __future__ import annotations

from typing import ClassVar

from .state import User
from .trading_common import Failure, TradingCalls, missing, money, need, scalar
from .wire import Amount

ATTRIBUTE_XSL = '<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"/>'  # sample


class SellerToolCalls(TradingCalls):
    CALLS: ClassVar[dict[str, str]] = {
        "GetAdFormatLeads": "get_ad_format_leads",
        "GetCrossPromotions": "get_cross_promotions",
        "GetPromotionRules": "get_promotion_rules",
        "GetItemRecommendations": "get_item_recommendations",
        "IssueRefund": "issue_refund",
        "SetPictureManagerDetails": "set_picture_manager_details",
        "GetAttributesCS": "get_attributes_cs",
        "GetAttributesXSL": "get_attributes_xsl",
        "GetCategory2CS": "get_category2_cs",
    }

    def get_ad_format_leads(self, user: User, doc: dict) -> dict:
        item_id = scalar(doc, "ItemID")
        if item_id:
            self._own(user, item_id)
        return {"AdFormatLead": None, "AdFormatLeadCount": 0}

    def _related(self, item_id: object, limit: int = 3) -> list[dict]:
        item = self._item(item_id)
        others = [
            i for i in self.market.items.values() if i.category_id == item.category_id and i.item_id != item.item_id
        ]
        return [{"ItemID": i.item_id, "Title": i.title} for i in others[:limit]]

    def get_cross_promotions(self, user: User, doc: dict) -> dict:
        need(doc, "ItemID", "PromotionMethod")
        related = self._related(scalar(doc, "ItemID"))
        method = scalar(doc, "PromotionMethod")
        return {
            "CrossPromotion": {
                "ItemID": scalar(doc, "ItemID"),
                "PromotionMethod": method,
                "PromotedItem": related or None,
            }
        }

    def get_promotion_rules(self, user: User, doc: dict) -> dict:
        need_any = scalar(doc, "ItemID") or scalar(doc, "StoreCategoryID")
        if not need_any:
            raise missing("ItemID")
        if scalar(doc, "ItemID"):
            self._own(user, scalar(doc, "ItemID"))
        return {"PromotionRuleArray": None}

    def get_item_recommendations(self, user: User, doc: dict) -> dict:
        item_id = scalar(doc, "GetRecommendationsRequestContainer.Item.ItemID") or scalar(doc, "ItemID")
        if not item_id:
            raise missing("GetRecommendationsRequestContainer")
        related = self._related(item_id)
        return {
            "GetRecommendationsResponseContainer": {
                "ListingAnalyzerRecommendations": None,
                "SIFFTASRecommendations": {"Item": related or None},
            }
        }

    def issue_refund(self, user: User, doc: dict) -> dict:
        need(doc, "RefundReason", "RefundType")
        order, _ = self._sale(user, doc)
        if order.seller != user.user_id:
            raise Failure(21916627, "Not the seller.", "Only the seller of the sale may refund it.")
        amount = money(scalar(doc, "RefundAmount", 0) or 0, "RefundAmount")
        return {"RefundFromSeller": Amount(amount), "TotalRefundToBuyer": Amount(amount)}

    def set_picture_manager_details(self, user: User, doc: dict) -> dict:
        need(doc, "Action", "PictureManagerDetails")
        action = str(scalar(doc, "Action"))
        if action not in ("Add", "Change", "Delete", "Move", "Rename", "Subscribe", "Unsubscribe"):
            raise Failure(37, "Input data is invalid.", f"Action {action} is not supported.", "Action")
        return {}

    def get_attributes_cs(self, user: User, doc: dict) -> dict:
        return {"AttributeSystemVersion": "1", "AttributeData": "<Attributes/>"}

    def get_attributes_xsl(self, user: User, doc: dict) -> dict:
        return {"XSLFile": {"FileName": "syi_attributes.xsl", "FileVersion": "1", "FileContent": ATTRIBUTE_XSL}}

    def get_category2_cs(self, user: User, doc: dict) -> dict:
        category = scalar(doc, "CategoryID")
        if (
            category
            and str(category) not in {i.category_id for i in self.market.items.values()}
            and str(category) not in self.market.categories
        ):
            raise Failure(87, "Category not valid.", f"Category {category} does not exist on this site.", "CategoryID")
        return {"MappedCategoryArray": None, "AttributeSystemVersion": "1"}
