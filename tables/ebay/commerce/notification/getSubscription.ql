-- Get subscription
-- GET /subscription/{subscription_id} (operation getSubscription).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope https://api.ebay.com/oauth/api_scope/commerce.notification.subscription.readonly https://api.ebay.com/oauth/api_scope/commerce.notification.subscription).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^subscription_id (path)
create table ebay.commerce.notification.getSubscription
  on select get from "{config.tables.ebay.rest.hosts.api}/commerce/notification/v1/subscription/{^subscription_id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
