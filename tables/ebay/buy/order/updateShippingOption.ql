-- Update shipping option
-- POST /checkout_session/{checkoutSessionId}/update_shipping_option (operation updateShippingOption).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/buy.order).
-- Body (application/json) from the columns through updateShippingOption.j2 (dotted paths, typed
-- per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^checkoutSessionId (path), lineItemId, shippingOptionId
create table ebay.buy.order.updateShippingOption
  on insert post to "{config.tables.ebay.rest.hosts.apix}/buy/order/v1/checkout_session/{^checkoutSessionId}/update_shipping_option"
     using bodyTemplate 'updateShippingOption.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
