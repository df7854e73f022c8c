"""The Taxonomy API (``/commerce/taxonomy/v1``) answered from the marketplace's category
tree (``market.categories``: the generated catalogue's tree, with eBay's ids): the default
tree id of a marketplace, the tree, a subtree, suggestions for keywords (the categories
the matching listings are in, then categories named by the keywords) and a category's
aspects (Brand from the catalogue's vocabulary, Condition).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .catalogue import condition_names, vocabulary
from .rest_common import Reply, RestCall, RestError
from .search import words
from .state import Category

TREE_ID = "0"  # EBAY_US's category tree
TREE_VERSION = "130"
MARKETPLACES = {"EBAY_US": TREE_ID}


def _tree_id(call: RestCall) -> None:
    if call.params.get("category_tree_id") != TREE_ID:
        raise RestError(
            400,
            62004,
            "The specified category tree ID was not found.",
            parameters={"categoryTreeId": call.params.get("category_tree_id", "")},
        )


def _category(call: RestCall) -> Category:
    category_id = str(call.required("category_id", 62005))
    category = call.market.categories.get(category_id)
    if category is None:
        raise RestError(
            400, 62005, "The specified category ID does not belong to the specified category tree.",
            parameters={"categoryId": category_id},
        )  # fmt: skip
    return category


def _children(call: RestCall) -> dict[str, list[Category]]:
    out: dict[str, list[Category]] = {}
    for c in call.market.categories.values():
        out.setdefault(c.parent_id or TREE_ID, []).append(c)
    return out


def _node(call: RestCall, category: Category, children: dict[str, list[Category]]) -> dict[str, Any]:
    node: dict[str, Any] = {
        "category": {"categoryId": category.category_id, "categoryName": category.name},
        "categoryTreeNodeLevel": category.level,
        "leafCategoryTreeNode": category.leaf,
        "parentCategoryTreeNodeHref": call.href(
            f"/category_tree/{TREE_ID}/get_category_subtree", {"category_id": category.parent_id or TREE_ID}
        ),
    }
    kids = children.get(category.category_id)
    if kids:
        node["childCategoryTreeNodes"] = [_node(call, k, children) for k in kids]
    return node


def _ancestors(call: RestCall, category: Category) -> list[dict[str, Any]]:
    out = []
    parent = call.market.categories.get(category.parent_id or "")
    while parent is not None:
        out.append(
            {
                "categoryId": parent.category_id,
                "categoryName": parent.name,
                "categoryTreeNodeLevel": parent.level,
                "categorySubtreeNodeHref": call.href(
                    f"/category_tree/{TREE_ID}/get_category_subtree", {"category_id": parent.category_id}
                ),
            }
        )
        parent = call.market.categories.get(parent.parent_id or "")
    return out


def get_default_category_tree_id(call: RestCall) -> Reply:
    marketplace = str(call.required("marketplace_id", 62002))
    if marketplace not in MARKETPLACES:
        raise RestError(
            400, 62003, "The specified marketplace ID was not found.", parameters={"marketplaceId": marketplace}
        )
    return Reply({"categoryTreeId": MARKETPLACES[marketplace], "categoryTreeVersion": TREE_VERSION})


def get_category_tree(call: RestCall) -> Reply:
    _tree_id(call)
    children = _children(call)
    root = {
        "category": {"categoryId": TREE_ID, "categoryName": "Root"},
        "categoryTreeNodeLevel": 0,
        "leafCategoryTreeNode": False,
        "childCategoryTreeNodes": [_node(call, c, children) for c in children.get(TREE_ID, [])],
    }
    return Reply(
        {
            "categoryTreeId": TREE_ID,
            "categoryTreeVersion": TREE_VERSION,
            "applicableMarketplaceIds": list(MARKETPLACES),
            "rootCategoryNode": root,
        }
    )


def get_category_subtree(call: RestCall) -> Reply:
    _tree_id(call)
    node = _node(call, _category(call), _children(call))
    return Reply({"categoryTreeId": TREE_ID, "categoryTreeVersion": TREE_VERSION, "categorySubtreeNode": node})


def get_category_suggestions(call: RestCall) -> Reply:
    _tree_id(call)
    q = str(call.required("q", 62007))
    counts = Counter(i.category_id for i in call.market.search(keywords=q)[:2000])
    wanted = set(words(q))
    for c in call.market.categories.values():  # categories named by the keywords, after the ones listings show
        if c.leaf and c.category_id not in counts and wanted & set(words(c.name)):
            counts[c.category_id] = 0
    suggestions = []
    for category_id, n in counts.most_common(10):
        category = call.market.categories.get(category_id)
        if category is None:
            continue
        suggestions.append(
            {
                "category": {"categoryId": category.category_id, "categoryName": category.name},
                "categoryTreeNodeAncestors": _ancestors(call, category),
                "categoryTreeNodeLevel": category.level,
                "relevancy": "HIGH" if n >= 50 else "MEDIUM" if n else "LOW",
            }
        )
    out: dict[str, Any] = {"categoryTreeId": TREE_ID, "categoryTreeVersion": TREE_VERSION}
    if suggestions:
        out["categorySuggestions"] = suggestions
    return Reply(out)


def get_item_aspects_for_category(call: RestCall) -> Reply:
    _tree_id(call)
    category = _category(call)
    leaf = vocabulary()["leaves"].get(category.category_id)
    brands = sorted({p.split()[0] for p in leaf["products"]}) if leaf else []

    def aspect(name: str, values: list[str], required: bool, mode: str) -> dict[str, Any]:
        return {
            "localizedAspectName": name,
            "aspectConstraint": {
                "aspectDataType": "STRING",
                "itemToAspectCardinality": "SINGLE",
                "aspectMode": mode,
                "aspectRequired": required,
                "aspectUsage": "RECOMMENDED",
                "aspectEnabledForVariations": False,
            },
            "aspectValues": [{"localizedValue": v} for v in values],
        }

    aspects = [aspect("Brand", brands, True, "FREE_TEXT")] if brands else []
    aspects.append(aspect("Condition", list(condition_names().values()), False, "SELECTION_ONLY"))
    return Reply({"aspects": aspects})


HANDLERS = {
    "commerce.taxonomy.getDefaultCategoryTreeId": get_default_category_tree_id,
    "commerce.taxonomy.getCategoryTree": get_category_tree,
    "commerce.taxonomy.getCategorySubtree": get_category_subtree,
    "commerce.taxonomy.getCategorySuggestions": get_category_suggestions,
    "commerce.taxonomy.getItemAspectsForCategory": get_item_aspects_for_category,
}
