-- Delete schedule
-- DELETE /schedule/{schedule_id} (operation deleteSchedule).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory https://api.ebay.com/oauth/api_scope/sell.fulfillment https://api.ebay.com/oauth/api_scope/sell.marketing https://api.ebay.com/oauth/api_scope/commerce.catalog.readonly https://api.ebay.com/oauth/api_scope/sell.analytics.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^schedule_id (path)
create table ebay.sell.feed.deleteSchedule
  on delete delete "{config.tables.ebay.rest.hosts.api}/sell/feed/v1/schedule/{^schedule_id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
