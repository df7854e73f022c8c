-- Get subscription
-- GET /subscription (operation getSubscription); the resultset is the `subscriptions` array.
-- Paging: limit → limit.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.account https://api.ebay.com/oauth/api_scope/sell.account.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: limit (query), continuation_token (query)
create table ebay.sell.account.getSubscription
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/account/v1/subscription?limit={limit}&continuation_token={continuation_token}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'subscriptions'
