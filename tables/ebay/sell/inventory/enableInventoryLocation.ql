-- Enable inventory location
-- POST /location/{merchantLocationKey}/enable (operation enableInventoryLocation).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^merchantLocationKey (path)
create table ebay.sell.inventory.enableInventoryLocation
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/inventory/v1/location/{^merchantLocationKey}/enable"
     using patch '../../rest.py'
     using auth 'ebay.user'
