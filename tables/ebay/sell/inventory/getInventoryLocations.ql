-- Get inventory locations
-- GET /location (operation getInventoryLocations); the resultset is the `locations` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory.readonly https://api.ebay.com/oauth/api_scope/sell.inventory).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: limit (query), offset (query)
create table ebay.sell.inventory.getInventoryLocations
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/inventory/v1/location?limit={limit}&offset={offset}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'locations'
