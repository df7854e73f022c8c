-- Get order task
-- GET /order_task/{task_id} (operation getOrderTask).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.fulfillment).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^task_id (path)
create table ebay.sell.feed.getOrderTask
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/feed/v1/order_task/{^task_id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
