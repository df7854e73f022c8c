-- Get fulfillment policy
-- GET /fulfillment_policy/{fulfillmentPolicyId} (operation getFulfillmentPolicy).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account https://api.ebay.com/oauth/api_scope/sell.account.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^fulfillmentPolicyId (path)
create table ebay.sell.account.getFulfillmentPolicy
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/account/v1/fulfillment_policy/{^fulfillmentPolicyId}"
     using patch '../../rest.py'
     using auth 'ebay.user'
