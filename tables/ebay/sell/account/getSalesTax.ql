-- Get sales tax
-- GET /sales_tax/{countryCode}/{jurisdictionId} (operation getSalesTax).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account https://api.ebay.com/oauth/api_scope/sell.account.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^countryCode (path), ^jurisdictionId (path)
create table ebay.sell.account.getSalesTax
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/account/v1/sales_tax/{^countryCode}/{^jurisdictionId}"
     using patch '../../rest.py'
     using auth 'ebay.user'
