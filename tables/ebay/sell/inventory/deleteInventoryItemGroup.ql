-- Delete inventory item group
-- DELETE /inventory_item_group/{inventoryItemGroupKey} (operation deleteInventoryItemGroup).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^inventoryItemGroupKey (path)
create table ebay.sell.inventory.deleteInventoryItemGroup
  on delete delete "{config.tables.ebay.rest.hosts.api}/sell/inventory/v1/inventory_item_group/{^inventoryItemGroupKey}"
     using patch '../../rest.py'
     using auth 'ebay.user'
