-- Get rate table
-- GET /rate_table/{rate_table_id} (operation getRateTable).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account https://api.ebay.com/oauth/api_scope/sell.account.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^rate_table_id (path)
create table ebay.sell.account.v2.getRateTable
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/account/v2/rate_table/{^rate_table_id}"
     using patch '../../../rest.py'
     using auth 'ebay.user'
