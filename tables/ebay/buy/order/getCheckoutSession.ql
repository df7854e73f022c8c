-- Get checkout session
-- GET /checkout_session/{checkoutSessionId} (operation getCheckoutSession).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/buy.order).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^checkoutSessionId (path)
create table ebay.buy.order.getCheckoutSession
  on select get from "{config.tables.ebay.rest.hosts.apix}/buy/order/v1/checkout_session/{^checkoutSessionId}"
     using patch '../../rest.py'
     using auth 'ebay.user'
