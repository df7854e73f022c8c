-- Get shipping fulfillments
-- GET /order/{orderId}/shipping_fulfillment (operation getShippingFulfillments); the resultset is the `fulfillments` array.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.fulfillment https://api.ebay.com/oauth/api_scope/sell.fulfillment.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^orderId (path)
create table ebay.sell.fulfillment.getShippingFulfillments
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/fulfillment/v1/order/{^orderId}/shipping_fulfillment"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'fulfillments'
