-- Delete payment policy
-- DELETE /payment_policy/{payment_policy_id} (operation deletePaymentPolicy).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^payment_policy_id (path)
create table ebay.sell.account.deletePaymentPolicy
  on delete delete "{config.tables.ebay.rest.hosts.api}/sell/account/v1/payment_policy/{^payment_policy_id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
