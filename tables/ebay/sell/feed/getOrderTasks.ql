-- Get order tasks
-- GET /order_task (operation getOrderTasks); the resultset is the `tasks` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.fulfillment).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: date_range (query), feed_type (query), limit (query), look_back_days (query),
--          offset (query), schedule_id (query)
create table ebay.sell.feed.getOrderTasks
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/feed/v1/order_task?date_range={date_range}&feed_type={feed_type}&limit={limit}&look_back_days={look_back_days}&offset={offset}&schedule_id={schedule_id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'tasks'
