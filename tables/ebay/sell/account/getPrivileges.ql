-- Get privileges
-- GET /privilege (operation getPrivileges).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account https://api.ebay.com/oauth/api_scope/sell.account.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Example: select * from ebay.sell.account.getPrivileges
create table ebay.sell.account.getPrivileges
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/account/v1/privilege"
     using patch '../../rest.py'
     using auth 'ebay.user'
