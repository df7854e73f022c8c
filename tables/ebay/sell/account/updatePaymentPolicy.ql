-- Update payment policy
-- PUT /payment_policy/{payment_policy_id} (operation updatePaymentPolicy).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account).
-- Body (application/json) from the columns through updatePaymentPolicy.j2 (dotted paths, typed per
-- the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^payment_policy_id (path), categoryTypes, deposit.amount.currency,
--          deposit.amount.value, deposit.dueIn.unit, deposit.dueIn.value, deposit.paymentMethods,
--          description, fullPaymentDueIn.unit, fullPaymentDueIn.value, immediatePay,
--          marketplaceId, name, paymentInstructions, paymentMethods
create table ebay.sell.account.updatePaymentPolicy
  on update put to "{config.tables.ebay.rest.hosts.api}/sell/account/v1/payment_policy/{^payment_policy_id}"
     using bodyTemplate 'updatePaymentPolicy.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
