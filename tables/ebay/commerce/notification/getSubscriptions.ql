-- Get subscriptions
-- GET /subscription (operation getSubscriptions); the resultset is the `subscriptions` array.
-- Paging: limit → limit.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope https://api.ebay.com/oauth/api_scope/commerce.notification.subscription.readonly https://api.ebay.com/oauth/api_scope/commerce.notification.subscription).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: limit (query), continuation_token (query)
create table ebay.commerce.notification.getSubscriptions
  on select get from "{config.tables.ebay.rest.hosts.api}/commerce/notification/v1/subscription?limit={limit}&continuation_token={continuation_token}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'subscriptions'
