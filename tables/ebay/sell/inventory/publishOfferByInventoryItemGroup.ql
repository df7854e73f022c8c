-- Publish offer by inventory item group
-- POST /offer/publish_by_inventory_item_group (operation publishOfferByInventoryItemGroup).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- Body (application/json) from the columns through publishOfferByInventoryItemGroup.j2 (dotted
-- paths, typed per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: inventoryItemGroupKey, marketplaceId
create table ebay.sell.inventory.publishOfferByInventoryItemGroup
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/inventory/v1/offer/publish_by_inventory_item_group"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'publishOfferByInventoryItemGroup.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
