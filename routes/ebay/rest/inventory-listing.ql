-- List an item in one call (Inventory API: inventory item → offer → publish):
--   POST /ebay/inventory/listings  {"sku": "QL-1", "title": "…", "price": "25.00", "quantity": 2,
--                                   "categoryId": "31388", "condition": "NEW", "description": "…"}
item = {"sku": "{sku}", "condition": "{condition}",
        "product": {"title": "{title}", "description": "{description}"},
        "availability": {"shipToLocationAvailability": {"quantity": "{quantity}"}}};
stocked = update ebay.sell.inventory.createOrReplaceInventoryItem with "{item}";
offer = insert into ebay.sell.inventory.createOffer
        (sku, marketplaceId, format, availableQuantity, categoryId, listingDescription,
         pricingSummary.price.value, pricingSummary.price.currency)
        values ("{sku}", "{config.tables.ebay.rest.marketplace}", "FIXED_PRICE", "{quantity}", "{categoryId}",
                "{description}", "{price}", "USD");
listing = insert into ebay.sell.inventory.publishOffer (offerId) values ("{^offer.offerId}");
return {"sku": "{sku}", "offerId": "{offer.offerId}", "listingId": "{listing.listingId}"}
  via route '/ebay/inventory/listings' using method post;
