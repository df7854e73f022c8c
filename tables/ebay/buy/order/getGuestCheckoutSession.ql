-- Get guest checkout session
-- GET /guest_checkout_session/{checkoutSessionId} (operation getGuestCheckoutSession).
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope/buy.guest.order).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^checkoutSessionId (path)
create table ebay.buy.order.getGuestCheckoutSession
  on select get from "{config.tables.ebay.rest.hosts.apix}/buy/order/v1/guest_checkout_session/{^checkoutSessionId}"
     using patch '../../rest.py'
     using auth 'ebay.app'
