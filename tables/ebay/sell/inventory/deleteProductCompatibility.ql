-- Delete product compatibility
-- DELETE /inventory_item/{sku}/product_compatibility (operation deleteProductCompatibility).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^sku (path)
create table ebay.sell.inventory.deleteProductCompatibility
  on delete delete "{config.tables.ebay.rest.hosts.api}/sell/inventory/v1/inventory_item/{^sku}/product_compatibility"
     using patch '../../rest.py'
     using auth 'ebay.user'
