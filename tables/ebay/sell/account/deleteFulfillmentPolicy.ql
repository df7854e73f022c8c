-- Delete fulfillment policy
-- DELETE /fulfillment_policy/{fulfillmentPolicyId} (operation deleteFulfillmentPolicy).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^fulfillmentPolicyId (path)
create table ebay.sell.account.deleteFulfillmentPolicy
  on delete delete "{config.tables.ebay.rest.hosts.api}/sell/account/v1/fulfillment_policy/{^fulfillmentPolicyId}"
     using patch '../../rest.py'
     using auth 'ebay.user'
