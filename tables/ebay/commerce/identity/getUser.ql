-- Get user
-- GET /user/ (operation getUser).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/commerce.identity.readonly https://api.ebay.com/oauth/api_scope/commerce.identity.name.readonly https://api.ebay.com/oauth/api_scope/commerce.identity.address.readonly https://api.ebay.com/oauth/api_scope/commerce.identity.email.readonly https://api.ebay.com/oauth/api_scope/commerce.identity.phone.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
create table ebay.commerce.identity.getUser
  on select get from "{config.tables.ebay.rest.hosts.apiz}/commerce/identity/v1/user/"
     using patch '../../rest.py'
     using auth 'ebay.user'
