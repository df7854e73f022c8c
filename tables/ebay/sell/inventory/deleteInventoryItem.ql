-- Delete inventory item
-- DELETE /inventory_item/{sku} (operation deleteInventoryItem).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^sku (path)
create table ebay.sell.inventory.deleteInventoryItem
  on delete delete "{config.tables.ebay.rest.hosts.api}/sell/inventory/v1/inventory_item/{^sku}"
     using patch '../../rest.py'
     using auth 'ebay.user'
