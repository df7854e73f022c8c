-- Initiate guest payment
-- POST /guest_checkout_session/{checkoutSessionId}/initiate_payment (operation initiateGuestPayment).
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope/buy.guest.order).
-- Body (application/json) from the columns through initiateGuestPayment.j2 (dotted paths, typed
-- per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^checkoutSessionId (path), paymentMethodBrandType, paymentMethodType
create table ebay.buy.order.initiateGuestPayment
  on insert post to "{config.tables.ebay.rest.hosts.apix}/buy/order/v1/guest_checkout_session/{^checkoutSessionId}/initiate_payment"
     using bodyTemplate 'initiateGuestPayment.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.app'
