-- Get inventory item
-- GET /inventory_item/{sku} (operation getInventoryItem).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory.readonly https://api.ebay.com/oauth/api_scope/sell.inventory).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Example: select * from ebay.sell.inventory.getInventoryItem where sku = "QL-CAM-1"
-- Columns: ^sku (path)
create table ebay.sell.inventory.getInventoryItem
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/inventory/v1/inventory_item/{^sku}"
     using patch '../../rest.py'
     using auth 'ebay.user'
