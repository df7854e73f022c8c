-- Enable subscription
-- POST /subscription/{subscription_id}/enable (operation enableSubscription).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope https://api.ebay.com/oauth/api_scope/commerce.notification.subscription).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^subscription_id (path)
create table ebay.commerce.notification.enableSubscription
  on insert post to "{config.tables.ebay.rest.hosts.api}/commerce/notification/v1/subscription/{^subscription_id}/enable"
     using patch '../../rest.py'
     using auth 'ebay.user'
