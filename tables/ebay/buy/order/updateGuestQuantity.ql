-- Update guest quantity
-- POST /guest_checkout_session/{checkoutSessionId}/update_quantity (operation updateGuestQuantity).
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope/buy.guest.order).
-- Body (application/json) from the columns through updateGuestQuantity.j2 (dotted paths, typed per
-- the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^checkoutSessionId (path), lineItemId, quantity
create table ebay.buy.order.updateGuestQuantity
  on insert post to "{config.tables.ebay.rest.hosts.apix}/buy/order/v1/guest_checkout_session/{^checkoutSessionId}/update_quantity"
     using bodyTemplate 'updateGuestQuantity.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.app'
