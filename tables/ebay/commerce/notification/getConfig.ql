-- Get config
-- GET /config (operation getConfig).
-- Auth: the config auth entry 'ebay.app' (scopes: https://api.ebay.com/oauth/api_scope).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
create table ebay.commerce.notification.getConfig
  on select get from "{config.tables.ebay.rest.hosts.api}/commerce/notification/v1/config"
     using patch '../../rest.py'
     using auth 'ebay.app'
