-- Initiate checkout session
-- POST /checkout_session/initiate (operation initiateCheckoutSession).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/buy.order).
-- Body (application/json) from the columns through initiateCheckoutSession.j2 (dotted paths, typed
-- per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: creditCard.accountHolderName, creditCard.billingAddress.addressLine1,
--          creditCard.billingAddress.addressLine2, creditCard.billingAddress.city,
--          creditCard.billingAddress.country, creditCard.billingAddress.county,
--          creditCard.billingAddress.firstName, creditCard.billingAddress.lastName,
--          creditCard.billingAddress.postalCode, creditCard.billingAddress.stateOrProvince,
--          creditCard.brand, creditCard.cardNumber, creditCard.cvvNumber, creditCard.expireMonth,
--          creditCard.expireYear, lineItemInputs, shippingAddress.addressLine1,
--          shippingAddress.addressLine2, shippingAddress.city, shippingAddress.country,
--          shippingAddress.county, shippingAddress.phoneNumber, shippingAddress.postalCode,
--          shippingAddress.recipient, shippingAddress.stateOrProvince
create table ebay.buy.order.initiateCheckoutSession
  on insert post to "{config.tables.ebay.rest.hosts.apix}/buy/order/v1/checkout_session/initiate"
     using bodyTemplate 'initiateCheckoutSession.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
