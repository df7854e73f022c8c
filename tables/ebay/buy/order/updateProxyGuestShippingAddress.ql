-- Update proxy guest shipping address
-- POST /proxy_guest_checkout_session/{checkoutSessionId}/update_shipping_address (operation updateProxyGuestShippingAddress).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/buy.proxy.guest.order).
-- Body (application/json) from the columns through updateProxyGuestShippingAddress.j2 (dotted
-- paths, typed per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^checkoutSessionId (path), addressLine1, addressLine2, city, country, county,
--          phoneNumber, postalCode, recipient, stateOrProvince
create table ebay.buy.order.updateProxyGuestShippingAddress
  on insert post to "{config.tables.ebay.rest.hosts.apix}/buy/order/v1/proxy_guest_checkout_session/{^checkoutSessionId}/update_shipping_address"
     using bodyTemplate 'updateProxyGuestShippingAddress.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
