-- Get payment policies
-- GET /payment_policy (operation getPaymentPolicies); the resultset is the `paymentPolicies` array.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account https://api.ebay.com/oauth/api_scope/sell.account.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Example: select paymentPolicyId, name from ebay.sell.account.getPaymentPolicies where marketplace_id = "EBAY_US"
-- Columns: ^marketplace_id (query)
create table ebay.sell.account.getPaymentPolicies
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/account/v1/payment_policy?marketplace_id={^marketplace_id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'paymentPolicies'
