-- Get customer service metric task
-- GET /customer_service_metric_task/{task_id} (operation getCustomerServiceMetricTask).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.analytics.readonly).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^task_id (path)
create table ebay.sell.feed.getCustomerServiceMetricTask
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/feed/v1/customer_service_metric_task/{^task_id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
