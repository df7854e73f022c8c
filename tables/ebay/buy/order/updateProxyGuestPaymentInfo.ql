-- Update proxy guest payment info
-- POST /proxy_guest_checkout_session/{checkoutSessionId}/update_payment_info (operation updateProxyGuestPaymentInfo).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/buy.proxy.guest.order).
-- Body (application/json) from the columns through updateProxyGuestPaymentInfo.j2 (dotted paths,
-- typed per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^checkoutSessionId (path), ^ebayCDate (header X-EBAY-C-DATE),
--          marketplace (header X-EBAY-C-MARKETPLACE-ID),
--          ^ebayCRequestNonce (header X-EBAY-C-REQUEST-NONCE),
--          ^ebayCSignature (header X-EBAY-C-SIGNATURE), creditCard.accountHolderName,
--          creditCard.billingAddress.addressLine1, creditCard.billingAddress.addressLine2,
--          creditCard.billingAddress.city, creditCard.billingAddress.country,
--          creditCard.billingAddress.county, creditCard.billingAddress.firstName,
--          creditCard.billingAddress.lastName, creditCard.billingAddress.postalCode,
--          creditCard.billingAddress.stateOrProvince, creditCard.brand, creditCard.cardNumber,
--          creditCard.cvvNumber, creditCard.expireMonth, creditCard.expireYear,
--          wallet.paymentToken
create table ebay.buy.order.updateProxyGuestPaymentInfo
  on insert post to "{config.tables.ebay.rest.hosts.apix}/buy/order/v1/proxy_guest_checkout_session/{^checkoutSessionId}/update_payment_info"
     using headers 'X-EBAY-C-DATE' = '{^ebayCDate}',
                   'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}',
                   'X-EBAY-C-REQUEST-NONCE' = '{^ebayCRequestNonce}',
                   'X-EBAY-C-SIGNATURE' = '{^ebayCSignature}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using bodyTemplate 'updateProxyGuestPaymentInfo.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
