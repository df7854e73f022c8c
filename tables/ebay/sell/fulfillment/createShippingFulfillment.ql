-- Create shipping fulfillment
-- POST /order/{orderId}/shipping_fulfillment (operation createShippingFulfillment).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.fulfillment).
-- Body (application/json) from the columns through createShippingFulfillment.j2 (dotted paths,
-- typed per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^orderId (path), lineItems, shippedDate, shippingCarrierCode, trackingNumber
create table ebay.sell.fulfillment.createShippingFulfillment
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/fulfillment/v1/order/{^orderId}/shipping_fulfillment"
     using headers 'Content-Type' = 'application/json'
     using bodyTemplate 'createShippingFulfillment.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
