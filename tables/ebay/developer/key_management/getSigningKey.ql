-- Get signing key
-- GET /signing_key/{signing_key_id} (operation getSigningKey).
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^signing_key_id (path)
create table ebay.developer.key_management.getSigningKey
  on select get from "{config.tables.ebay.rest.hosts.apiz}/developer/key_management/v1/signing_key/{^signing_key_id}"
     using patch '../../rest.py'
     using auth 'ebay.app'
