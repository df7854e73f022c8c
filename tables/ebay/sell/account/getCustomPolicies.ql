-- Get custom policies
-- GET /custom_policy/ (operation getCustomPolicies); the resultset is the `customPolicies` array.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account https://api.ebay.com/oauth/api_scope/sell.account.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: policy_types (query), marketplace (header X-EBAY-C-MARKETPLACE-ID)
create table ebay.sell.account.getCustomPolicies
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/account/v1/custom_policy/?policy_types={policy_types}"
     using headers 'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'customPolicies'
