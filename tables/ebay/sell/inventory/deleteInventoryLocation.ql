-- Delete inventory location
-- DELETE /location/{merchantLocationKey} (operation deleteInventoryLocation).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^merchantLocationKey (path)
create table ebay.sell.inventory.deleteInventoryLocation
  on delete delete "{config.tables.ebay.rest.hosts.api}/sell/inventory/v1/location/{^merchantLocationKey}"
     using patch '../../rest.py'
     using auth 'ebay.user'
