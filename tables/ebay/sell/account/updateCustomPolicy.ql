-- Update custom policy
-- PUT /custom_policy/{custom_policy_id} (operation updateCustomPolicy).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account).
-- Body (application/json) from the columns through updateCustomPolicy.j2 (dotted paths, typed per
-- the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^custom_policy_id (path), marketplace (header X-EBAY-C-MARKETPLACE-ID), description,
--          label, name
create table ebay.sell.account.updateCustomPolicy
  on update put to "{config.tables.ebay.rest.hosts.api}/sell/account/v1/custom_policy/{^custom_policy_id}"
     using headers 'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using bodyTemplate 'updateCustomPolicy.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
