-- Get payout summary
-- GET /payout_summary (operation getPayoutSummary).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.finances).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: filter (query)
create table ebay.sell.finances.getPayoutSummary
  on select get from "{config.tables.ebay.rest.hosts.apiz}/sell/finances/v1/payout_summary?filter={filter}"
     using patch '../../rest.py'
     using auth 'ebay.user'
