-- Create custom policy
-- POST /custom_policy/ (operation createCustomPolicy).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account).
-- Body (application/json) from the columns through createCustomPolicy.j2 (dotted paths, typed per
-- the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: marketplace (header X-EBAY-C-MARKETPLACE-ID), description, label, name, policyType
create table ebay.sell.account.createCustomPolicy
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/account/v1/custom_policy/"
     using headers 'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using bodyTemplate 'createCustomPolicy.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
