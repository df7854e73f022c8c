-- Get order
-- GET /order/{orderId} (operation getOrder).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.fulfillment https://api.ebay.com/oauth/api_scope/sell.fulfillment.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: fieldGroups (query), ^orderId (path)
create table ebay.sell.fulfillment.getOrder
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/fulfillment/v1/order/{^orderId}?fieldGroups={fieldGroups}"
     using patch '../../rest.py'
     using auth 'ebay.user'
