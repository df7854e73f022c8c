-- Delete sales tax
-- DELETE /sales_tax/{countryCode}/{jurisdictionId} (operation deleteSalesTax).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^countryCode (path), ^jurisdictionId (path)
create table ebay.sell.account.deleteSalesTax
  on delete delete "{config.tables.ebay.rest.hosts.api}/sell/account/v1/sales_tax/{^countryCode}/{^jurisdictionId}"
     using patch '../../rest.py'
     using auth 'ebay.user'
