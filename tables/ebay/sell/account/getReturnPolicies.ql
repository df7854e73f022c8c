-- Get return policies
-- GET /return_policy (operation getReturnPolicies); the resultset is the `returnPolicies` array.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account https://api.ebay.com/oauth/api_scope/sell.account.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Example: select returnPolicyId, name from ebay.sell.account.getReturnPolicies where marketplace_id = "EBAY_US"
-- Columns: ^marketplace_id (query)
create table ebay.sell.account.getReturnPolicies
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/account/v1/return_policy?marketplace_id={^marketplace_id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'returnPolicies'
