-- Create shipping quote
-- POST /shipping_quote (operation createShippingQuote).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.logistics).
-- Body (application/json) from the columns through createShippingQuote.j2 (dotted paths, typed per
-- the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: orders, packageSpecification.dimensions.height, packageSpecification.dimensions.length,
--          packageSpecification.dimensions.unit, packageSpecification.dimensions.width,
--          packageSpecification.weight.unit, packageSpecification.weight.value,
--          shipFrom.companyName, shipFrom.contactAddress.addressLine1,
--          shipFrom.contactAddress.addressLine2, shipFrom.contactAddress.city,
--          shipFrom.contactAddress.countryCode, shipFrom.contactAddress.county,
--          shipFrom.contactAddress.postalCode, shipFrom.contactAddress.stateOrProvince,
--          shipFrom.fullName, shipFrom.primaryPhone.phoneNumber, shipTo.companyName,
--          shipTo.contactAddress.addressLine1, shipTo.contactAddress.addressLine2,
--          shipTo.contactAddress.city, shipTo.contactAddress.countryCode,
--          shipTo.contactAddress.county, shipTo.contactAddress.postalCode,
--          shipTo.contactAddress.stateOrProvince, shipTo.fullName,
--          shipTo.primaryPhone.phoneNumber
create table ebay.sell.logistics.createShippingQuote
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/logistics/v1_beta/shipping_quote"
     using bodyTemplate 'createShippingQuote.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
