-- Get sku location mapping
-- GET /listing/{listingId}/sku/{sku}/locations (operation getSkuLocationMapping); the resultset is the `locations` array.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory https://api.ebay.com/oauth/api_scope/sell.inventory.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^listingId (path), ^sku (path)
create table ebay.sell.inventory.getSkuLocationMapping
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/inventory/v1/listing/{^listingId}/sku/{^sku}/locations"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'locations'
