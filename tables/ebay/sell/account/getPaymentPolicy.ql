-- Get payment policy
-- GET /payment_policy/{payment_policy_id} (operation getPaymentPolicy).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account https://api.ebay.com/oauth/api_scope/sell.account.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^payment_policy_id (path)
create table ebay.sell.account.getPaymentPolicy
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/account/v1/payment_policy/{^payment_policy_id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
