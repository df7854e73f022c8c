-- Seller: list an item with the Inventory API — an inventory item (stock and product),
-- an offer for it (price, category, marketplace), then publish the offer as a listing.
--   qlgate run scripts/ebay/rest/list-an-item.ql --var sku=QL-CAM-1 --var 'title=QL test camera' --var price=99.00
item = {"sku": "{sku}", "condition": "NEW",
        "product": {"title": "{title}", "description": "Listed from a qlgate script"},
        "availability": {"shipToLocationAvailability": {"quantity": 3}}};
stocked = update ebay.sell.inventory.createOrReplaceInventoryItem with "{item}";
offer = insert into ebay.sell.inventory.createOffer
        (sku, marketplaceId, format, availableQuantity, categoryId,
         pricingSummary.price.value, pricingSummary.price.currency)
        values ("{sku}", "EBAY_US", "FIXED_PRICE", 3, "31388", "{price}", "USD");
listing = insert into ebay.sell.inventory.publishOffer (offerId) values ("{^offer.offerId}");
return {"sku": "{sku}", "offerId": "{offer.offerId}", "listingId": "{listing.listingId}"};
