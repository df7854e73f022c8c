-- Create or replace inventory item
-- PUT /inventory_item/{sku} (operation createOrReplaceInventoryItem).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- Body (application/json) from the columns through createOrReplaceInventoryItem.j2 (dotted paths,
-- typed per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Example: item = {"sku": "QL-CAM-1", "availability": {"shipToLocationAvailability": {"quantity": 3}}, "condition": "NEW", "product": {"title": "QL camera", "description": "A camera listed from qlgate"}}; return update ebay.sell.inventory.createOrReplaceInventoryItem with "{item}";
-- Columns: contentLanguage (header Content-Language), ^sku (path),
--          availability.pickupAtLocationAvailability,
--          availability.shipToLocationAvailability.availabilityDistributions,
--          availability.shipToLocationAvailability.quantity, condition, conditionDescription,
--          conditionDescriptors, packageWeightAndSize.dimensions.height,
--          packageWeightAndSize.dimensions.length, packageWeightAndSize.dimensions.unit,
--          packageWeightAndSize.dimensions.width, packageWeightAndSize.packageType,
--          packageWeightAndSize.shippingIrregular, packageWeightAndSize.weight.unit,
--          packageWeightAndSize.weight.value, product.aspects, product.brand, product.description,
--          product.ean, product.epid, product.imageUrls, product.isbn, product.mpn,
--          product.subtitle, product.title, product.upc, product.videoIds
create table ebay.sell.inventory.createOrReplaceInventoryItem
  on update put to "{config.tables.ebay.rest.hosts.api}/sell/inventory/v1/inventory_item/{^sku}"
     using headers 'Content-Type' = 'application/json',
                   'Content-Language' = '{contentLanguage}'
     using defaults contentLanguage = "en-US"
     using bodyTemplate 'createOrReplaceInventoryItem.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
