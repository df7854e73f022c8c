-- Create signing key
-- POST /signing_key (operation createSigningKey).
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- Body (application/json) from the columns through createSigningKey.j2 (dotted paths, typed per
-- the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: signingKeyCipher
create table ebay.developer.key_management.createSigningKey
  on insert post to "{config.tables.ebay.rest.hosts.apiz}/developer/key_management/v1/signing_key"
     using bodyTemplate 'createSigningKey.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.app'
