-- Get return policy by name
-- GET /return_policy/get_by_policy_name (operation getReturnPolicyByName).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account https://api.ebay.com/oauth/api_scope/sell.account.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^marketplace_id (query), ^name (query)
create table ebay.sell.account.getReturnPolicyByName
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/account/v1/return_policy/get_by_policy_name?marketplace_id={^marketplace_id}&name={^name}"
     using patch '../../rest.py'
     using auth 'ebay.user'
