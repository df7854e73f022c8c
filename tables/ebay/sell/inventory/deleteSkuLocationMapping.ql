-- Delete sku location mapping
-- DELETE /listing/{listingId}/sku/{sku}/locations (operation deleteSkuLocationMapping).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^listingId (path), ^sku (path)
create table ebay.sell.inventory.deleteSkuLocationMapping
  on delete delete "{config.tables.ebay.rest.hosts.api}/sell/inventory/v1/listing/{^listingId}/sku/{^sku}/locations"
     using patch '../../rest.py'
     using auth 'ebay.user'
