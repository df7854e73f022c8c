"""The Trading API's Selling Manager templates and automation rules
(``trading.py`` dispatches them): a sale template is a listing's fields kept
under a product, listed from again and again; rules say when the Selling
Manager lists, relists or makes second-chance offers on its own.

Rules are stored and answered back in the simple form eBay documents (one rule
of each kind per item or template); the emulator does not run a scheduler.
"""

from __future__ import annotations

from typing import Any, ClassVar

from .state import User
from .trading_common import Failure, TradingCalls, flag, need, scalar
from .trading_state import SaleTemplate
from .wire import Amount, get

ITEM_RULES = ("AutomatedRelistingRule", "AutomatedSecondChanceOfferRule")
TEMPLATE_RULES = ("AutomatedListingRule", "AutomatedRelistingRule", "AutomatedSecondChanceOfferRule")


class TemplateCalls(TradingCalls):
    CALLS: ClassVar[dict[str, str]] = {
        "AddSellingManagerTemplate": "add_template",
        "DeleteSellingManagerTemplate": "delete_template",
        "GetSellingManagerTemplates": "get_templates",
        "SaveItemToSellingManagerTemplate": "save_item_to_template",
        "AddItemFromSellingManagerTemplate": "add_item_from_template",
        "SetSellingManagerItemAutomationRule": "set_item_rule",
        "GetSellingManagerItemAutomationRule": "get_item_rule",
        "DeleteSellingManagerItemAutomationRule": "delete_item_rule",
        "SetSellingManagerTemplateAutomationRule": "set_template_rule",
        "GetSellingManagerTemplateAutomationRule": "get_template_rule",
        "DeleteSellingManagerTemplateAutomationRule": "delete_template_rule",
    }

    # ---------------------------------------------------------------- templates
    def _template(self, user: User, template_id: Any) -> SaleTemplate:
        template = self.market.trading.templates.get(str(template_id or ""))
        if template is None or template.owner != user.user_id:
            raise Failure(
                21919309, "Template not found.", f"Sale template {template_id} does not exist.", "SaleTemplateID"
            )
        return template

    def _product_id(self, user: User, product_id: Any) -> str:
        product = self.market.products.get(str(product_id or ""))
        if product is None or product.owner != user.user_id:
            raise Failure(
                21919301, "Product not found.", f"Selling Manager product {product_id} does not exist.", "ProductID"
            )
        return product.product_id

    def _store(self, user: User, name: str, product_id: str, item: dict) -> SaleTemplate:
        self.new_listing(user, item, store=False)  # a template must make a valid listing
        template = SaleTemplate(self.market.trading.new_id(206000), user.user_id, name, product_id, item)
        self.market.trading.templates[template.template_id] = template
        return template

    def add_template(self, user: User, doc: dict) -> dict:
        need(doc, "Item", "ProductID")
        product_id = self._product_id(user, scalar(doc, "ProductID"))
        item = get(doc, "Item") or {}
        template = self._store(
            user, str(scalar(doc, "SaleTemplateName") or item.get("Title") or "Template"), product_id, item
        )
        return {
            "CategoryID": scalar(item, "PrimaryCategory.CategoryID"),
            "SaleTemplateID": template.template_id,
            "SaleTemplateGroupID": product_id,
            "SaleTemplateName": template.name,
            "SellingManagerProductDetails": {"ProductID": product_id},
        }

    def save_item_to_template(self, user: User, doc: dict) -> dict:
        need(doc, "ItemID", "ProductID", "TemplateName")
        item = self._own(user, scalar(doc, "ItemID"))
        product_id = self._product_id(user, scalar(doc, "ProductID"))
        fields = {
            "Title": item.title,
            "PrimaryCategory": {"CategoryID": item.category_id},
            "StartPrice": item.price,
            "Currency": item.currency,
            "Country": item.country or "US",
            "ListingDuration": "Days_7",
            "ListingType": item.listing_type,
            "Quantity": item.quantity,
            "Location": item.location,
            "PostalCode": item.postal_code,
            "Description": item.description,
        }
        template = self._store(user, str(scalar(doc, "TemplateName")), product_id, fields)
        return {"TemplateID": template.template_id}

    def delete_template(self, user: User, doc: dict) -> dict:
        need(doc, "SaleTemplateID")
        template = self._template(user, scalar(doc, "SaleTemplateID"))
        del self.market.trading.templates[template.template_id]
        self.market.trading.template_rules.pop(template.template_id, None)
        return {"DeletedSaleTemplateID": template.template_id, "DeletedSaleTemplateName": template.name}

    def get_templates(self, user: User, doc: dict) -> dict:
        wanted = (
            {str(t) for t in (get(doc, "SaleTemplateID") or [])}
            if isinstance(get(doc, "SaleTemplateID"), list)
            else ({str(scalar(doc, "SaleTemplateID"))} if scalar(doc, "SaleTemplateID") else set())
        )
        templates = [
            t
            for t in self.market.trading.templates.values()
            if t.owner == user.user_id and (not wanted or t.template_id in wanted)
        ]
        if wanted and not templates:
            raise Failure(21919309, "Template not found.", "None of the sale templates exists.", "SaleTemplateID")
        return {
            "SellingManagerTemplateDetailsArray": {
                "SellingManagerTemplateDetails": [
                    {
                        "SaleTemplateID": t.template_id,
                        "SaleTemplateName": t.name,
                        "SellingManagerProductDetails": {"ProductID": t.product_id},
                        "Template": {
                            "Title": t.item.get("Title"),
                            "StartPrice": Amount(
                                float(get(t.item, "StartPrice") or 0), str(t.item.get("Currency", "USD"))
                            ),
                        },
                    }
                    for t in templates
                ]
            }
            if templates
            else None
        }

    def add_item_from_template(self, user: User, doc: dict) -> dict:
        need(doc, "SaleTemplateID")
        template = self._template(user, scalar(doc, "SaleTemplateID"))
        fields = {**template.item, **(get(doc, "Item") or {})}
        item = self.new_listing(user, fields, store=True)
        return {
            "ItemID": item.item_id,
            "StartTime": item.start,
            "EndTime": item.end,
            "Fees": {"Fee": [{"Name": "InsertionFee", "Fee": Amount(0.1, item.currency)}]},
            "CategoryID": item.category_id,
        }

    # ---------------------------------------------------------------- automation rules
    def _set_rules(self, store: dict[str, dict[str, Any]], key: str, doc: dict, kinds: tuple[str, ...]) -> dict:
        given = {k: get(doc, k) for k in kinds if isinstance(get(doc, k), dict)}
        if not given:
            raise Failure(37, "Input data is invalid.", f"Give one of {', '.join(kinds)}.", kinds[0])
        store.setdefault(key, {}).update(given)
        return dict(store[key])

    def _delete_rules(self, store: dict[str, dict[str, Any]], key: str, doc: dict, kinds: tuple[str, ...]) -> dict:
        rules = store.get(key, {})
        for kind in kinds:
            if flag(scalar(doc, f"Delete{kind}")):
                if kind not in rules:
                    raise Failure(21919310, "No such rule.", f"There is no {kind} to delete.", f"Delete{kind}")
                del rules[kind]
        return dict(rules)

    def set_item_rule(self, user: User, doc: dict) -> dict:
        need(doc, "ItemID")
        item = self._own(user, scalar(doc, "ItemID"))
        return self._set_rules(self.market.trading.item_rules, item.item_id, doc, ITEM_RULES)

    def get_item_rule(self, user: User, doc: dict) -> dict:
        need(doc, "ItemID")
        item = self._own(user, scalar(doc, "ItemID"))
        return dict(self.market.trading.item_rules.get(item.item_id, {}))

    def delete_item_rule(self, user: User, doc: dict) -> dict:
        need(doc, "ItemID")
        item = self._own(user, scalar(doc, "ItemID"))
        return self._delete_rules(self.market.trading.item_rules, item.item_id, doc, ITEM_RULES)

    def set_template_rule(self, user: User, doc: dict) -> dict:
        need(doc, "SaleTemplateID")
        template = self._template(user, scalar(doc, "SaleTemplateID"))
        return self._set_rules(self.market.trading.template_rules, template.template_id, doc, TEMPLATE_RULES)

    def get_template_rule(self, user: User, doc: dict) -> dict:
        need(doc, "SaleTemplateID")
        template = self._template(user, scalar(doc, "SaleTemplateID"))
        return dict(self.market.trading.template_rules.get(template.template_id, {}))

    def delete_template_rule(self, user: User, doc: dict) -> dict:
        need(doc, "SaleTemplateID")
        template = self._template(user, scalar(doc, "SaleTemplateID"))
        return self._delete_rules(self.market.trading.template_rules, template.template_id, doc, TEMPLATE_RULES)
