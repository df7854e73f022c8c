-- Get shipping fulfillment
-- GET /order/{orderId}/shipping_fulfillment/{fulfillmentId} (operation getShippingFulfillment).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.fulfillment https://api.ebay.com/oauth/api_scope/sell.fulfillment.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^fulfillmentId (path), ^orderId (path)
create table ebay.sell.fulfillment.getShippingFulfillment
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/fulfillment/v1/order/{^orderId}/shipping_fulfillment/{^fulfillmentId}"
     using patch '../../rest.py'
     using auth 'ebay.user'
