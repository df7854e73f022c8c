-- Get signing keys
-- GET /signing_key (operation getSigningKeys); the resultset is the `signingKeys` array.
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
create table ebay.developer.key_management.getSigningKeys
  on select get from "{config.tables.ebay.rest.hosts.apiz}/developer/key_management/v1/signing_key"
     using patch '../../rest.py'
     using auth 'ebay.app'
     resultset 'signingKeys'
