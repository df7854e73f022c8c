"""The Trading API's calls about the site rather than a user's business
(``trading.py`` dispatches them): the official time, the category tree, its
features and item specifics, category suggestions for keywords, the site's
reference details, an item's shipping cost, and the application's call usage.

Categories come from the marketplace's tree (``market.categories``, filled by
the generated catalogue); without one, the categories of the listed items stand
in as a flat tree.
"""

from __future__ import annotations

from collections import Counter
from typing import ClassVar

from .state import Category, User, now, stamp
from .trading_common import Failure, TradingCalls, flag, missing, money, need, need_one, number, scalar, texts
from .wire import Amount, get

CONDITIONS = {1000: "New", 1500: "New other", 3000: "Used", 7000: "For parts or not working"}
DURATIONS = ["Days_1", "Days_3", "Days_5", "Days_7", "Days_10", "Days_30", "GTC"]
DETAILS: dict[str, list[dict]] = {
    "CountryDetails": [
        {"Country": c, "Description": d}
        for c, d in (("US", "United States"), ("GB", "United Kingdom"), ("DE", "Germany"), ("CA", "Canada"))
    ],
    "CurrencyDetails": [
        {"Currency": c, "Description": d}
        for c, d in (("USD", "US Dollar"), ("GBP", "Pound Sterling"), ("EUR", "Euro"), ("CAD", "Canadian Dollar"))
    ],
    "SiteDetails": [{"Site": s, "SiteID": i} for s, i in (("US", 0), ("Canada", 2), ("UK", 3), ("Germany", 77))],
    "ShippingServiceDetails": [
        {"ShippingService": s, "Description": d, "ShippingServiceID": n, "ValidForSellingFlow": True}
        for n, (s, d) in enumerate(
            (("USPSMedia", "USPS Media Mail"), ("USPSPriority", "USPS Priority Mail"), ("UPSGround", "UPS Ground")), 1
        )
    ],
    "ShippingCarrierDetails": [{"ShippingCarrier": c, "Description": c} for c in ("USPS", "UPS", "FedEx", "DHL")],
    "ReturnPolicyDetails": [
        {
            "ReturnsWithin": [
                {"ReturnsWithinOption": o, "Description": o.replace("_", " ")}
                for o in ("Days_14", "Days_30", "Days_60")
            ]
        }
    ],
    "ListingStartPriceDetails": [{"ListingType": t, "StartPrice": Amount(0.99)} for t in ("Chinese", "FixedPriceItem")],
    "TimeZoneDetails": [{"TimeZoneID": "America/Los_Angeles", "StandardLabel": "Pacific Standard Time"}],
}


class MetaCalls(TradingCalls):
    CALLS: ClassVar[dict[str, str]] = {
        "GeteBayOfficialTime": "get_official_time",
        "GetCategories": "get_categories",
        "GetCategoryFeatures": "get_category_features",
        "GetCategorySpecifics": "get_category_specifics",
        "GetSuggestedCategories": "get_suggested_categories",
        "GeteBayDetails": "get_ebay_details",
        "GetItemShipping": "get_item_shipping",
        "GetApiAccessRules": "get_api_access_rules",
    }

    def get_official_time(self, user: User, doc: dict) -> dict:
        return {}

    # ---------------------------------------------------------------- categories
    def tree(self) -> dict[str, Category]:
        if self.market.categories:
            return self.market.categories
        flat: dict[str, Category] = {}
        for item in self.market.items.values():
            flat.setdefault(item.category_id, Category(item.category_id, item.category_name or item.category_id))
        return flat

    def _category(self, category_id: object) -> Category:
        category = self.tree().get(str(category_id))
        if category is None:
            raise Failure(
                87, "Category not valid.", f"Category {category_id} does not exist on this site.", "CategoryID"
            )
        return category

    @staticmethod
    def _fields(c: Category) -> dict:
        return {
            "BestOfferEnabled": True,
            "AutoPayEnabled": True,
            "CategoryID": c.category_id,
            "CategoryLevel": c.level,
            "CategoryName": c.name,
            "CategoryParentID": c.parent_id or c.category_id,
            "LeafCategory": c.leaf,
        }

    def get_categories(self, user: User, doc: dict) -> dict:
        tree = self.tree()
        parents = texts(get(doc, "CategoryParent"))
        for p in parents:
            self._category(p)
        limit = number(scalar(doc, "LevelLimit"), "LevelLimit", 0)
        if limit < 0:
            raise missing("LevelLimit")
        chosen = []
        for c in tree.values():
            if limit and c.level > limit:
                continue
            if parents:
                ancestor, node = False, c
                while node is not None:
                    if node.category_id in parents:
                        ancestor = True
                        break
                    node = tree.get(node.parent_id) if node.parent_id else None  # type: ignore[assignment]
                if not ancestor:
                    continue
            chosen.append(c)
        out = {"CategoryCount": len(chosen), "UpdateTime": "2024-01-01T00:00:00.000Z", "CategoryVersion": "117"}
        if scalar(doc, "DetailLevel") == "ReturnAll":
            return {"CategoryArray": {"Category": [self._fields(c) for c in chosen]} if chosen else None, **out}
        return out

    def get_category_features(self, user: User, doc: dict) -> dict:
        conditions = {"Condition": [{"ID": k, "DisplayName": v} for k, v in CONDITIONS.items()]}
        features = {
            "BestOfferEnabled": True,
            "ConditionEnabled": "Enabled",
            "ConditionValues": conditions,
            "HandlingTimeEnabled": True,
            "ReturnPolicyEnabled": True,
        }
        wanted = set(texts(get(doc, "FeatureID")))
        if wanted:
            features = {
                k: v
                for k, v in features.items()
                if k in wanted or (k == "ConditionValues" and "ConditionEnabled" in wanted)
            }
        out: dict = {
            "CategoryVersion": "117",
            "UpdateTime": "2024-01-01T00:00:00.000Z",
            "SiteDefaults": {"ListingDuration": DURATIONS, **features}
            if scalar(doc, "DetailLevel") == "ReturnAll"
            else None,
            "FeatureDefinitions": {"ListingDurations": {"ListingDuration": [{"Duration": DURATIONS}]}},
        }
        if scalar(doc, "CategoryID"):
            c = self._category(scalar(doc, "CategoryID"))
            out["Category"] = {"CategoryID": c.category_id, **features}
        elif flag(scalar(doc, "ViewAllNodes")):
            out["Category"] = [{"CategoryID": c.category_id, **features} for c in self.tree().values() if c.leaf]
        return out

    def get_category_specifics(self, user: User, doc: dict) -> dict:
        need_one(doc, "CategoryID", "CategorySpecific", "CategorySpecificsFileInfo")
        ids = texts(get(doc, "CategoryID")) or texts(get(doc, "CategorySpecific.CategoryID"))
        if not ids:
            raise Failure(37, "Input data is invalid.", "Give a CategoryID.", "CategoryID")
        max_values = number(scalar(doc, "MaxValuesPerName"), "MaxValuesPerName", 10)
        recommendations = []
        for category_id in ids:
            c = self._category(category_id)
            titles = [i.title for i in self.market.items.values() if i.category_id == c.category_id]
            brands = [b for b, _ in Counter(t.split()[0] for t in titles if t.split()).most_common(max_values)]
            names = [
                ("Brand", brands),
                ("Condition", list(CONDITIONS.values())[:max_values]),
                ("Model", []),
            ]
            recommendations.append(
                {
                    "CategoryID": c.category_id,
                    "NameRecommendation": [
                        {
                            "Name": name,
                            "ValidationRules": {"ValueType": "Text", "MaxValues": 1, "SelectionMode": "FreeText"},
                            "ValueRecommendation": [{"Value": v} for v in values] or None,
                        }
                        for name, values in names
                    ],
                }
            )
        return {"Recommendations": recommendations}

    def get_suggested_categories(self, user: User, doc: dict) -> dict:
        need(doc, "Query")
        query = str(scalar(doc, "Query"))
        if len(query) > 350:
            raise Failure(37, "Input data is invalid.", "Query is longer than 350 characters.", "Query")
        words = [w.lower() for w in query.split() if w]
        tree = self.tree()
        counts: Counter[str] = Counter()
        for item in self.market.items.values():
            title = item.title.lower()
            if item.active and all(w in title for w in words):
                counts[item.category_id] += 1
        for c in tree.values():
            if c.leaf and any(w in c.name.lower() for w in words):
                counts[c.category_id] += 0  # a name match is a suggestion even without listings
        total = sum(counts.values()) or 1
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:10]
        suggestions = []
        for category_id, n in ranked:
            c = tree.get(category_id) or Category(category_id, category_id)
            parent = tree.get(c.parent_id) if c.parent_id else None
            suggestions.append(
                {
                    "Category": {
                        "CategoryID": c.category_id,
                        "CategoryName": c.name,
                        "CategoryParentID": parent.category_id if parent else None,
                        "CategoryParentName": parent.name if parent else None,
                    },
                    "PercentItemFound": round(100 * n / total),
                }
            )
        return {
            "SuggestedCategoryArray": {"SuggestedCategory": suggestions} if suggestions else None,
            "CategoryCount": len(suggestions),
        }

    # ---------------------------------------------------------------- site details
    def get_ebay_details(self, user: User, doc: dict) -> dict:
        names = texts(get(doc, "DetailName")) or list(DETAILS)
        unknown = [n for n in names if n not in DETAILS]
        if unknown:
            raise Failure(37, "Input data is invalid.", f"DetailName {unknown[0]} is not supported.", "DetailName")
        return {**{n: DETAILS[n] for n in names}, "UpdateTime": "2024-01-01T00:00:00.000Z"}

    def get_item_shipping(self, user: User, doc: dict) -> dict:
        need(doc, "ItemID")
        need_one(doc, "DestinationPostalCode", "DestinationCountryCode")
        item = self._active(scalar(doc, "ItemID"))
        options = get(
            self.market.trading.extras.get(item.item_id, {}).get("Fields") or {},
            "ShippingDetails.ShippingServiceOptions",
        )
        option = options[0] if isinstance(options, list) else options if isinstance(options, dict) else {}
        country = scalar(doc, "DestinationCountryCode") or "US"
        given = scalar(option, "ShippingServiceCost")
        default = 4.0 if country == (item.country or "US") else 19.0
        cost = money(given, "ShippingServiceCost") if given else default
        quantity = number(scalar(doc, "QuantitySold"), "QuantitySold", 1)
        return {
            "ShippingDetails": {
                "ShippingServiceOptions": {
                    "ShippingService": option.get("ShippingService") or "USPSPriority",
                    "ShippingServiceCost": Amount(round(cost * quantity, 2), item.currency),
                    "ShippingServicePriority": 1,
                },
                "ShippingType": "Flat",
            }
        }

    def get_api_access_rules(self, user: User, doc: dict) -> dict:
        usage = self.market.trading.usage
        rules = [("ApplicationAggregate", sum(usage.values())), *sorted(usage.items())]
        return {
            "ApiAccessRule": [
                {
                    "CallName": name,
                    "CountsTowardAggregate": name != "ApplicationAggregate",
                    "DailyHardLimit": 5000,
                    "DailySoftLimit": 5000,
                    "DailyUsage": count,
                    "HourlyHardLimit": 6000,
                    "HourlySoftLimit": 6000,
                    "HourlyUsage": count,
                    "Period": -1,
                    "PeriodicHardLimit": 10000,
                    "PeriodicSoftLimit": 10000,
                    "PeriodicUsage": count,
                    "PeriodicStartDate": stamp(now().replace(hour=0, minute=0, second=0, microsecond=0)),
                    "ModTime": "2024-01-01T00:00:00.000Z",
                    "RuleCurrentStatus": "NotSet",
                    "RuleStatus": "RuleOn",
                }
                for name, count in rules
            ]
        }
