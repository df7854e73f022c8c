-- Find seller standards profiles
-- GET /seller_standards_profile (operation findSellerStandardsProfiles); the resultset is the `standardsProfiles` array.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.analytics.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
create table ebay.sell.analytics.findSellerStandardsProfiles
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/analytics/v1/seller_standards_profile"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'standardsProfiles'
