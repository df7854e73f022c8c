-- Get payouts
-- GET /payout (operation getPayouts); the resultset is the `payouts` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.finances).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: filter (query), sort (query), limit (query), offset (query)
create table ebay.sell.finances.getPayouts
  on select get from "{config.tables.ebay.rest.hosts.apiz}/sell/finances/v1/payout?filter={filter}&sort={sort}&limit={limit}&offset={offset}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'payouts'
