-- Get inventory tasks
-- GET /inventory_task (operation getInventoryTasks); the resultset is the `tasks` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: feed_type (query), schedule_id (query), look_back_days (query), date_range (query),
--          limit (query), offset (query)
create table ebay.sell.feed.getInventoryTasks
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/feed/v1/inventory_task?feed_type={feed_type}&schedule_id={schedule_id}&look_back_days={look_back_days}&date_range={date_range}&limit={limit}&offset={offset}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'tasks'
