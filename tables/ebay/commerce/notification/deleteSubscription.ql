-- Delete subscription
-- DELETE /subscription/{subscription_id} (operation deleteSubscription).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope https://api.ebay.com/oauth/api_scope/commerce.notification.subscription).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^subscription_id (path)
create table ebay.commerce.notification.deleteSubscription
  on delete delete "{config.tables.ebay.rest.hosts.api}/commerce/notification/v1/subscription/{^subscription_id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
