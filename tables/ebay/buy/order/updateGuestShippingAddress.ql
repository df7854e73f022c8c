-- Update guest shipping address
-- POST /guest_checkout_session/{checkoutSessionId}/update_shipping_address (operation updateGuestShippingAddress).
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope/buy.guest.order).
-- Body (application/json) from the columns through updateGuestShippingAddress.j2 (dotted paths,
-- typed per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^checkoutSessionId (path), addressLine1, addressLine2, city, country, county,
--          phoneNumber, postalCode, recipient, stateOrProvince
create table ebay.buy.order.updateGuestShippingAddress
  on insert post to "{config.tables.ebay.rest.hosts.apix}/buy/order/v1/guest_checkout_session/{^checkoutSessionId}/update_shipping_address"
     using bodyTemplate 'updateGuestShippingAddress.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.app'
