-- Get schedules
-- GET /schedule (operation getSchedules); the resultset is the `schedules` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory https://api.ebay.com/oauth/api_scope/sell.fulfillment https://api.ebay.com/oauth/api_scope/sell.marketing https://api.ebay.com/oauth/api_scope/commerce.catalog.readonly https://api.ebay.com/oauth/api_scope/sell.analytics.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^feed_type (query), limit (query), offset (query)
create table ebay.sell.feed.getSchedules
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/feed/v1/schedule?feed_type={^feed_type}&limit={limit}&offset={offset}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'schedules'
