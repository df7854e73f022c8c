-- Update payment info
-- POST /checkout_session/{checkoutSessionId}/update_payment_info (operation updatePaymentInfo).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/buy.order).
-- Body (application/json) from the columns through updatePaymentInfo.j2 (dotted paths, typed per
-- the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^checkoutSessionId (path), creditCard.accountHolderName,
--          creditCard.billingAddress.addressLine1, creditCard.billingAddress.addressLine2,
--          creditCard.billingAddress.city, creditCard.billingAddress.country,
--          creditCard.billingAddress.county, creditCard.billingAddress.firstName,
--          creditCard.billingAddress.lastName, creditCard.billingAddress.postalCode,
--          creditCard.billingAddress.stateOrProvince, creditCard.brand, creditCard.cardNumber,
--          creditCard.cvvNumber, creditCard.expireMonth, creditCard.expireYear,
--          wallet.paymentToken
create table ebay.buy.order.updatePaymentInfo
  on insert post to "{config.tables.ebay.rest.hosts.apix}/buy/order/v1/checkout_session/{^checkoutSessionId}/update_payment_info"
     using bodyTemplate 'updatePaymentInfo.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
