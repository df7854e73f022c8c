-- Get seller standards profile
-- GET /seller_standards_profile/{program}/{cycle} (operation getSellerStandardsProfile).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.analytics.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^cycle (path), ^program (path)
create table ebay.sell.analytics.getSellerStandardsProfile
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/analytics/v1/seller_standards_profile/{^program}/{^cycle}"
     using patch '../../rest.py'
     using auth 'ebay.user'
