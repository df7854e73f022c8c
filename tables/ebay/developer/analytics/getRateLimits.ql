-- Get application rate limits and usage
-- GET /rate_limit/ (operation getRateLimits); the resultset is the `rateLimits` array.
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: api_context (query), api_name (query)
create table ebay.developer.analytics.getRateLimits
  on select get from "{config.tables.ebay.rest.hosts.api}/developer/analytics/v1_beta/rate_limit/?api_context={api_context}&api_name={api_name}"
     using patch '../../rest.py'
     using auth 'ebay.app'
     resultset 'rateLimits'
