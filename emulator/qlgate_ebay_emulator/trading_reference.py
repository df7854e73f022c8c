"""Trading calls that ql.io's eBay tree has tables for and that answer reference
data or a user's own settings, rather than a listing's life (``trading.py``
dispatches them): charities, VeRO reason codes, a challenge token, the Store's
options, description templates, popular and contextual keywords, the seller
dashboard, the account summary, a bidder's contact details and the tax table.

The charities, reason codes, themes, templates and the dashboard's standing are
sample data, made up for the emulator and documented as such; keywords and
contact details are derived from the marketplace's own items and users; a tax
table is the caller's own, kept from SetTaxTable to GetTaxTable.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from typing import Any, ClassVar

from .state import User, stamp
from .trading_common import Failure, TradingCalls, missing, need, scalar
from .wire import Amount, as_list, get

# sample data (not eBay's): enough for a table to read each field it names
CHARITIES = [
    {"@id": "1001", "Name": "Sample Reading Fund", "Mission": "Books for every school library.", "Status": "Valid"},
    {"@id": "1002", "Name": "Sample Animal Shelter", "Mission": "Care and homes for stray pets.", "Status": "Valid"},
    {"@id": "1003", "Name": "Sample River Trust", "Mission": "Clean water in local rivers.", "Status": "NoLongerValid"},
]
VERO_REASONS = [
    {"@codeID": "1", "BriefText": "Trademark - Unlawful use of trademark", "DetailedText": "The listing uses a mark."},
    {"@codeID": "2", "BriefText": "Copyright - Unlawful copy", "DetailedText": "The listing copies a work."},
]
THEMES = [{"ThemeID": n, "Name": name} for n, name in ((1, "Sample Classic"), (2, "Sample Modern"))]
TEMPLATES = [
    {"ID": 10, "Name": "Sample Plain", "Type": "Layout", "TemplateXML": "<div>{{content}}</div>"},
    {"ID": 20, "Name": "Sample Blue", "Type": "Theme", "ImageURL": "http://pics.example/blue.png"},
]
STOP_WORDS = {"the", "a", "an", "and", "with", "for", "of", "in", "-"}


class ReferenceCalls(TradingCalls):
    CALLS: ClassVar[dict[str, str]] = {
        "GetCharities": "get_charities",
        "GetVeROReasonCodeDetails": "get_vero_reason_code_details",
        "GetChallengeToken": "get_challenge_token",
        "GetStoreOptions": "get_store_options",
        "GetDescriptionTemplates": "get_description_templates",
        "GetPopularKeywords": "get_popular_keywords",
        "GetContextualKeywords": "get_contextual_keywords",
        "GetSellerDashboard": "get_seller_dashboard",
        "GetAccount": "get_account",
        "GetUserContactDetails": "get_user_contact_details",
        "SetTaxTable": "set_tax_table",
        "GetTaxTable": "get_tax_table",
    }

    def get_charities(self, user: User, doc: dict) -> dict:
        wanted, query = scalar(doc, "CharityID"), str(scalar(doc, "Query", "") or "").lower()
        found = [c for c in CHARITIES if (not wanted or c["@id"] == str(wanted)) and query in c["Name"].lower()]
        if wanted and not found:
            raise Failure(21916251, "Invalid charity ID.", f"The charity {wanted} does not exist.", "CharityID")
        return {"Charity": found or None}

    def get_vero_reason_code_details(self, user: User, doc: dict) -> dict:
        wanted = scalar(doc, "ReasonCodeID")
        reasons = [r for r in VERO_REASONS if not wanted or r["@codeID"] == str(wanted)]
        if not reasons:
            raise Failure(21916623, "Invalid reason code.", f"Reason code {wanted} does not exist.", "ReasonCodeID")
        return {"VeROReasonCodeDetails": {"VeROSiteDetail": {"Site": "US", "ReasonCodeDetail": reasons}}}

    def get_challenge_token(self, user: User, doc: dict) -> dict:
        token = hashlib.sha256(f"{user.user_id}:{stamp()}".encode()).hexdigest()[:32]
        base = "http://challenge.emulator.invalid/"
        return {"ChallengeToken": token, "ImageChallengeURL": base + "image", "AudioChallengeURL": base + "audio"}

    def get_store_options(self, user: User, doc: dict) -> dict:
        return {
            "BasicThemeArray": {"Theme": THEMES},
            "LogoArray": {"Logo": [{"LogoID": 1, "Name": "Sample Logo", "URL": "http://pics.example/logo.png"}]},
            "SubscriptionArray": {
                "Subscription": [
                    {"Level": level, "Fee": Amount(fee)} for level, fee in (("Basic", 15.95), ("Featured", 49.95))
                ]
            },
            "MaxCategories": 300,
            "MaxCategoryLevels": 3,
        }

    def get_description_templates(self, user: User, doc: dict) -> dict:
        kind = scalar(doc, "MotorVehicles")
        templates = [] if str(kind).lower() == "true" else TEMPLATES
        return {"DescriptionTemplate": templates or None, "LayoutTotal": 1, "ThemeTotal": 1}

    def _keywords(self, items: list) -> list[str]:
        counts = Counter(
            word for item in items for word in item.title.lower().split() if word not in STOP_WORDS and len(word) > 1
        )
        return [word for word, _ in counts.most_common(10)]

    def get_popular_keywords(self, user: User, doc: dict) -> dict:
        categories = [str(c) for c in as_list(get(doc, "CategoryID")) if str(c).strip()] or ["-1"]
        answers = []
        for category in categories:
            items = [i for i in self.market.items.values() if category in ("-1", i.category_id)]
            answers.append({"CategoryID": category, "Keywords": ";".join(self._keywords(items)) or None})
        return {"CategoryArray": {"Category": answers}, "HasMore": False}

    def get_contextual_keywords(self, user: User, doc: dict) -> dict:
        need(doc, "URL")
        words = {w for w in str(scalar(doc, "URL")).lower().replace("/", " ").replace("-", " ").split() if len(w) > 2}
        # the page's words that the marketplace's titles hold, the most listed first
        counts = Counter(w for i in self.market.items.values() for w in set(i.title.lower().split()) if w in words)
        keywords = [{"Keyword": word, "Ranking": rank} for rank, (word, _) in enumerate(counts.most_common(10), 1)]
        return {"ContextSearchAsset": keywords or None}

    def get_seller_dashboard(self, user: User, doc: dict) -> dict:
        listed = sum(1 for i in self.market.items.values() if i.seller == user.user_id)
        return {
            "SearchStanding": {"Status": "Raised" if user.feedback >= 100 else "Standard"},
            "SellerFeeDiscount": {"Percentage": 0.0},
            "PowerSellerStatus": {"Level": "Bronze" if listed >= 10 else "None"},
            "SellerAccount": {"Status": "Current"},
        }

    def get_account(self, user: User, doc: dict) -> dict:
        return {
            "AccountID": f"E{abs(hash(user.user_id)) % 10**10:010d}",
            "AccountSummary": {"AccountState": "Active", "CurrentBalance": Amount(0.0), "PastDue": Amount(0.0)},
            "Currency": "USD",
            "AccountEntries": None,
        }

    def get_user_contact_details(self, user: User, doc: dict) -> dict:
        need(doc, "ItemID", "ContactID", "RequesterID")
        item = self._item(scalar(doc, "ItemID"))
        contact = self.market.users.get(str(scalar(doc, "ContactID")))
        if contact is None:
            raise Failure(21916286, "Invalid user.", "The contact is not a user of this site.", "ContactID")
        if user.user_id not in (item.seller, contact.user_id):
            raise Failure(21916285, "Not allowed.", "Only the seller or the contact may ask.", "RequesterID")
        return {
            "UserID": contact.user_id,
            "ContactAddress": {
                "Name": contact.user_id,
                "CityName": "San Jose",
                "StateOrProvince": "CA",
                "Country": "US",
            },
            "RegistrationDate": "2010-01-01T00:00:00.000Z",
        }

    def _tax_tables(self) -> dict[str, list[dict[str, Any]]]:
        return self.__dict__.setdefault("_tax", {})

    def set_tax_table(self, user: User, doc: dict) -> dict:
        rows = as_list(get(doc, "TaxTable.TaxJurisdiction"))
        if not rows:
            raise missing("TaxTable.TaxJurisdiction")
        table = {str(r.get("JurisdictionID")): r for r in self._tax_tables().get(user.user_id, [])}
        for row in rows:
            if not isinstance(row, dict) or not row.get("JurisdictionID"):
                raise missing("TaxJurisdiction.JurisdictionID")
            table[str(row["JurisdictionID"])] = {
                "JurisdictionID": str(row["JurisdictionID"]),
                "SalesTaxPercent": float(row.get("SalesTaxPercent") or 0),
                "ShippingIncludedInTax": str(row.get("ShippingIncludedInTax", "false")).lower() == "true",
            }
        self._tax_tables()[user.user_id] = list(table.values())
        return {}

    def get_tax_table(self, user: User, doc: dict) -> dict:
        rows = self._tax_tables().get(user.user_id, [])
        return {"TaxTable": {"TaxJurisdiction": rows or None}, "LastUpdateTime": stamp()}
