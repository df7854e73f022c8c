-- Initiate proxy guest checkout session
-- POST /proxy_guest_checkout_session/initiate (operation initiateProxyGuestCheckoutSession).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/buy.proxy.guest.order).
-- Body (application/json) from the columns through initiateProxyGuestCheckoutSession.j2 (dotted
-- paths, typed per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: contactEmail, contactFirstName, contactLastName, lineItemInputs,
--          shippingAddress.addressLine1, shippingAddress.addressLine2, shippingAddress.city,
--          shippingAddress.country, shippingAddress.county, shippingAddress.phoneNumber,
--          shippingAddress.postalCode, shippingAddress.recipient, shippingAddress.stateOrProvince
create table ebay.buy.order.initiateProxyGuestCheckoutSession
  on insert post to "{config.tables.ebay.rest.hosts.apix}/buy/order/v1/proxy_guest_checkout_session/initiate"
     using bodyTemplate 'initiateProxyGuestCheckoutSession.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
