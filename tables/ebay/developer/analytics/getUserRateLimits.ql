-- Get user rate limits and usage
-- GET /user_rate_limit/ (operation getUserRateLimits); the resultset is the `rateLimits` array.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory https://api.ebay.com/oauth/api_scope/sell.inventory.readonly https://api.ebay.com/oauth/api_scope/sell.marketplace.insights.readonly https://api.ebay.com/oauth/api_scope/commerce.catalog.readonly https://api.ebay.com/oauth/api_scope/sell.marketing https://api.ebay.com/oauth/api_scope/sell.marketing.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: api_context (query), api_name (query)
create table ebay.developer.analytics.getUserRateLimits
  on select get from "{config.tables.ebay.rest.hosts.api}/developer/analytics/v1_beta/user_rate_limit/?api_context={api_context}&api_name={api_name}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'rateLimits'
