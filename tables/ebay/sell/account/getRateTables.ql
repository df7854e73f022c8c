-- Get rate tables
-- GET /rate_table (operation getRateTables); the resultset is the `rateTables` array.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account https://api.ebay.com/oauth/api_scope/sell.account.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: country_code (query)
create table ebay.sell.account.getRateTables
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/account/v1/rate_table?country_code={country_code}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'rateTables'
