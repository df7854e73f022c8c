-- Get destinations
-- GET /destination (operation getDestinations); the resultset is the `destinations` array.
-- Paging: limit → limit.
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: limit (query), continuation_token (query)
create table ebay.commerce.notification.getDestinations
  on select get from "{config.tables.ebay.rest.hosts.api}/commerce/notification/v1/destination?limit={limit}&continuation_token={continuation_token}"
     using patch '../../rest.py'
     using auth 'ebay.app'
     resultset 'destinations'
