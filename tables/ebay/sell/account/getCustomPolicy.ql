-- Get custom policy
-- GET /custom_policy/{custom_policy_id} (operation getCustomPolicy).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account https://api.ebay.com/oauth/api_scope/sell.account.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^custom_policy_id (path), marketplace (header X-EBAY-C-MARKETPLACE-ID)
create table ebay.sell.account.getCustomPolicy
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/account/v1/custom_policy/{^custom_policy_id}"
     using headers 'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using patch '../../rest.py'
     using auth 'ebay.user'
