-- Get sales tax jurisdictions
-- GET /country/{countryCode}/sales_tax_jurisdiction (operation getSalesTaxJurisdictions); the resultset is the `salesTaxJurisdictions` array.
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^countryCode (path)
create table ebay.sell.metadata.getSalesTaxJurisdictions
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/metadata/v1/country/{^countryCode}/sales_tax_jurisdiction"
     using patch '../../rest.py'
     using auth 'ebay.app'
     resultset 'salesTaxJurisdictions'
