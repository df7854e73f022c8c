-- Get customer service metric tasks
-- GET /customer_service_metric_task (operation getCustomerServiceMetricTasks); the resultset is the `tasks` array.
-- Paging: limit → limit, offset → offset.
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.analytics.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: date_range (query), feed_type (query), limit (query), look_back_days (query),
--          offset (query)
create table ebay.sell.feed.getCustomerServiceMetricTasks
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/feed/v1/customer_service_metric_task?date_range={date_range}&feed_type={feed_type}&limit={limit}&look_back_days={look_back_days}&offset={offset}"
     using patch '../../rest.py'
     using auth 'ebay.user'
     resultset 'tasks'
