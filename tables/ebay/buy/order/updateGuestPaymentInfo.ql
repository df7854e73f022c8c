-- Update guest payment info
-- POST /guest_checkout_session/{checkoutSessionId}/update_payment_info (operation updateGuestPaymentInfo).
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope/buy.guest.order).
-- Body (application/json) from the columns through updateGuestPaymentInfo.j2 (dotted paths, typed
-- per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^checkoutSessionId (path), creditCard.accountHolderName,
--          creditCard.billingAddress.addressLine1, creditCard.billingAddress.addressLine2,
--          creditCard.billingAddress.city, creditCard.billingAddress.country,
--          creditCard.billingAddress.county, creditCard.billingAddress.firstName,
--          creditCard.billingAddress.lastName, creditCard.billingAddress.postalCode,
--          creditCard.billingAddress.stateOrProvince, creditCard.brand, creditCard.cardNumber,
--          creditCard.cvvNumber, creditCard.expireMonth, creditCard.expireYear,
--          wallet.paymentToken
create table ebay.buy.order.updateGuestPaymentInfo
  on insert post to "{config.tables.ebay.rest.hosts.apix}/buy/order/v1/guest_checkout_session/{^checkoutSessionId}/update_payment_info"
     using bodyTemplate 'updateGuestPaymentInfo.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.app'
