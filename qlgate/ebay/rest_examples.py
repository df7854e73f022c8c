"""The ``-- Example:`` scripts of the eBay REST tables (the console's "Try it").

Written for the APIs the emulator serves with state (Browse, Taxonomy, Inventory,
Fulfillment, Account), so each runs offline as it is: where a call needs an id,
the example first finds one with a search or a list call instead of naming an
id that only one data set has. Other tables get the console's own example
(their required columns, to fill in).
"""

from __future__ import annotations

_ITEM = 'ids = select itemId from ebay.buy.browse.search where q = "camera" limit 1; '
_TREE = 'tree = select categoryTreeId from ebay.commerce.taxonomy.getDefaultCategoryTreeId where marketplace_id = "EBAY_US"; '
_OFFER = 'ids = select offerId from ebay.sell.inventory.getOffers where sku = "QL-CAM-1"; '

EXAMPLES = {
    # Browse
    "ebay.buy.browse.search": 'select itemId, title, price from ebay.buy.browse.search where q = "camera" limit 5',
    "ebay.buy.browse.getItem": _ITEM
    + 'return select title, price, seller from ebay.buy.browse.getItem where item_id = "{ids}";',
    # Taxonomy
    "ebay.commerce.taxonomy.getDefaultCategoryTreeId": (
        'select * from ebay.commerce.taxonomy.getDefaultCategoryTreeId where marketplace_id = "EBAY_US"'
    ),
    "ebay.commerce.taxonomy.getCategorySuggestions": _TREE
    + "return select category.categoryId, category.categoryName from ebay.commerce.taxonomy.getCategorySuggestions"
    + ' where category_tree_id = "{tree}" and q = "camera";',
    "ebay.commerce.taxonomy.getCategoryTree": _TREE
    + 'return select rootCategoryNode.category from ebay.commerce.taxonomy.getCategoryTree where category_tree_id = "{tree}";',
    # Inventory
    "ebay.sell.inventory.createOrReplaceInventoryItem": (
        'item = {"sku": "QL-CAM-1", "availability": {"shipToLocationAvailability": {"quantity": 3}},'
        ' "condition": "NEW", "product": {"title": "QL camera", "description": "A camera listed from qlgate"}};'
        ' return update ebay.sell.inventory.createOrReplaceInventoryItem with "{item}";'
    ),
    "ebay.sell.inventory.getInventoryItems": "select sku, product.title from ebay.sell.inventory.getInventoryItems limit 10",
    "ebay.sell.inventory.getInventoryItem": 'select * from ebay.sell.inventory.getInventoryItem where sku = "QL-CAM-1"',
    "ebay.sell.inventory.createOffer": (
        "insert into ebay.sell.inventory.createOffer (sku, marketplaceId, format, availableQuantity, categoryId,"
        ' pricingSummary.price.value, pricingSummary.price.currency) values ("QL-CAM-1", "EBAY_US", "FIXED_PRICE",'
        ' 3, "31388", "99.00", "USD")'
    ),
    "ebay.sell.inventory.getOffers": 'select offerId, status from ebay.sell.inventory.getOffers where sku = "QL-CAM-1"',
    "ebay.sell.inventory.publishOffer": _OFFER
    + 'return insert into ebay.sell.inventory.publishOffer (offerId) values ("{ids}");',
    # Fulfillment
    "ebay.sell.fulfillment.getOrders": (
        "select orderId, orderFulfillmentStatus, pricingSummary.total from ebay.sell.fulfillment.getOrders limit 10"
    ),
    # Account
    "ebay.sell.account.getFulfillmentPolicies": (
        'select fulfillmentPolicyId, name from ebay.sell.account.getFulfillmentPolicies where marketplace_id = "EBAY_US"'
    ),
    "ebay.sell.account.getPaymentPolicies": (
        'select paymentPolicyId, name from ebay.sell.account.getPaymentPolicies where marketplace_id = "EBAY_US"'
    ),
    "ebay.sell.account.getReturnPolicies": (
        'select returnPolicyId, name from ebay.sell.account.getReturnPolicies where marketplace_id = "EBAY_US"'
    ),
    "ebay.sell.account.getPrivileges": "select * from ebay.sell.account.getPrivileges",
}
