-- Get public key
-- GET /public_key/{public_key_id} (operation getPublicKey).
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^public_key_id (path)
create table ebay.commerce.notification.getPublicKey
  on select get from "{config.tables.ebay.rest.hosts.api}/commerce/notification/v1/public_key/{^public_key_id}"
     using patch '../../rest.py'
     using auth 'ebay.app'
