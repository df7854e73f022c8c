-- Get inventory item group
-- GET /inventory_item_group/{inventoryItemGroupKey} (operation getInventoryItemGroup).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory.readonly https://api.ebay.com/oauth/api_scope/sell.inventory).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^inventoryItemGroupKey (path)
create table ebay.sell.inventory.getInventoryItemGroup
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/inventory/v1/inventory_item_group/{^inventoryItemGroupKey}"
     using patch '../../rest.py'
     using auth 'ebay.user'
