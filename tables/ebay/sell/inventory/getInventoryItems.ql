-- Get inventory items
-- GET /inventory_item (operation getInventoryItems); the resultset is the `inventoryItems` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory.readonly https://api.ebay.com/oauth/api_scope/sell.inventory).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Example: select sku, product.title from ebay.sell.inventory.getInventoryItems limit 10
-- Columns: limit (query), offset (query)
create table ebay.sell.inventory.getInventoryItems
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/inventory/v1/inventory_item?limit={limit}&offset={offset}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'inventoryItems'
