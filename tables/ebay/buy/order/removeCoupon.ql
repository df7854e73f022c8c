-- Remove coupon
-- POST /checkout_session/{checkoutSessionId}/remove_coupon (operation removeCoupon).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/buy.order).
-- Body (application/json) from the columns through removeCoupon.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^checkoutSessionId (path), redemptionCode
create table ebay.buy.order.removeCoupon
  on insert post to "{config.tables.ebay.rest.hosts.apix}/buy/order/v1/checkout_session/{^checkoutSessionId}/remove_coupon"
     using bodyTemplate 'removeCoupon.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
