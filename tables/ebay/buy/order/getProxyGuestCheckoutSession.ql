-- Get proxy guest checkout session
-- GET /proxy_guest_checkout_session/{checkoutSessionId} (operation getProxyGuestCheckoutSession).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/buy.proxy.guest.order).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^checkoutSessionId (path)
create table ebay.buy.order.getProxyGuestCheckoutSession
  on select get from "{config.tables.ebay.rest.hosts.apix}/buy/order/v1/proxy_guest_checkout_session/{^checkoutSessionId}"
     using patch '../../rest.py'
     using auth 'ebay.user'
