-- Seller: an inventory item stocked, then removed (the Inventory API's counterpart of the
-- 2012 post's third journey, a Selling Manager product added and deleted).
--   qlgate run scripts/ebay/rest/stock-and-remove.ql --var sku=HP-BOOK-4
item = {"sku": "{sku}", "condition": "NEW",
        "product": {"title": "Harry Potter Book4", "description": "Stocked, then removed"},
        "availability": {"shipToLocationAvailability": {"quantity": 50}}};
update ebay.sell.inventory.createOrReplaceInventoryItem with "{item}";
-- writes run in the order written: the delete goes out once the item exists
delete from ebay.sell.inventory.deleteInventoryItem where sku = "{sku}";
return {"sku": "{sku}", "stocked": 50, "removed": true};
