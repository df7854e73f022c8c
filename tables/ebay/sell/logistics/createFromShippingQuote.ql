-- Create from shipping quote
-- POST /shipment/create_from_shipping_quote (operation createFromShippingQuote).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.logistics).
-- Body (application/json) from the columns through createFromShippingQuote.j2 (dotted paths, typed
-- per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: additionalOptions, labelCustomMessage, labelSize, rateId, returnTo.companyName,
--          returnTo.contactAddress.addressLine1, returnTo.contactAddress.addressLine2,
--          returnTo.contactAddress.city, returnTo.contactAddress.countryCode,
--          returnTo.contactAddress.county, returnTo.contactAddress.postalCode,
--          returnTo.contactAddress.stateOrProvince, returnTo.fullName,
--          returnTo.primaryPhone.phoneNumber, shippingQuoteId
create table ebay.sell.logistics.createFromShippingQuote
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/logistics/v1_beta/shipment/create_from_shipping_quote"
     using bodyTemplate 'createFromShippingQuote.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
