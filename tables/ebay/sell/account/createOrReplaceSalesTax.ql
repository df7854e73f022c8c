-- Create or replace sales tax
-- PUT /sales_tax/{countryCode}/{jurisdictionId} (operation createOrReplaceSalesTax).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account).
-- Body (application/json) from the columns through createOrReplaceSalesTax.j2 (dotted paths, typed
-- per the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^countryCode (path), ^jurisdictionId (path), salesTaxPercentage,
--          shippingAndHandlingTaxed
create table ebay.sell.account.createOrReplaceSalesTax
  on update put to "{config.tables.ebay.rest.hosts.api}/sell/account/v1/sales_tax/{^countryCode}/{^jurisdictionId}"
     using bodyTemplate 'createOrReplaceSalesTax.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
