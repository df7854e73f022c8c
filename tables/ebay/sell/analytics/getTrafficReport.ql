-- Get traffic report
-- GET /traffic_report (operation getTrafficReport).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.analytics.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: dimension (query), filter (query), metric (query), sort (query)
create table ebay.sell.analytics.getTrafficReport
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/analytics/v1/traffic_report?dimension={dimension}&filter={filter}&metric={metric}&sort={sort}"
     using patch '../../rest.py'
     using auth 'ebay.user'
