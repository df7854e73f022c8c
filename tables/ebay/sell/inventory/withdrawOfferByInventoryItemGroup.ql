-- Withdraw offer by inventory item group
-- POST /offer/withdraw_by_inventory_item_group (operation withdrawOfferByInventoryItemGroup).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- Body (application/json) from the columns through withdrawOfferByInventoryItemGroup.j2 (dotted
-- paths, typed per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: inventoryItemGroupKey, marketplaceId
create table ebay.sell.inventory.withdrawOfferByInventoryItemGroup
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/inventory/v1/offer/withdraw_by_inventory_item_group"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'withdrawOfferByInventoryItemGroup.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
