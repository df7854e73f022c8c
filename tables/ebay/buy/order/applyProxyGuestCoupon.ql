-- Apply proxy guest coupon
-- POST /proxy_guest_checkout_session/{checkoutSessionId}/apply_coupon (operation applyProxyGuestCoupon).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/buy.proxy.guest.order).
-- Body (application/json) from the columns through applyProxyGuestCoupon.j2 (dotted paths, typed
-- per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^checkoutSessionId (path), redemptionCode
create table ebay.buy.order.applyProxyGuestCoupon
  on insert post to "{config.tables.ebay.rest.hosts.apix}/buy/order/v1/proxy_guest_checkout_session/{^checkoutSessionId}/apply_coupon"
     using bodyTemplate 'applyProxyGuestCoupon.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
