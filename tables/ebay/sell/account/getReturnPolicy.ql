-- Get return policy
-- GET /return_policy/{return_policy_id} (operation getReturnPolicy).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account https://api.ebay.com/oauth/api_scope/sell.account.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^return_policy_id (path)
create table ebay.sell.account.getReturnPolicy
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/account/v1/return_policy/{^return_policy_id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
