-- Update proxy guest quantity
-- POST /proxy_guest_checkout_session/{checkoutSessionId}/update_quantity (operation updateProxyGuestQuantity).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/buy.proxy.guest.order).
-- Body (application/json) from the columns through updateProxyGuestQuantity.j2 (dotted paths,
-- typed per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^checkoutSessionId (path), lineItemId, quantity
create table ebay.buy.order.updateProxyGuestQuantity
  on insert post to "{config.tables.ebay.rest.hosts.apix}/buy/order/v1/proxy_guest_checkout_session/{^checkoutSessionId}/update_quantity"
     using bodyTemplate 'updateProxyGuestQuantity.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
