-- Get inventory task
-- GET /inventory_task/{task_id} (operation getInventoryTask).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: ^task_id (path)
create table ebay.sell.feed.getInventoryTask
  on select get from "{config.tables.ebay.rest.hosts.api}/sell/feed/v1/inventory_task/{^task_id}"
     using patch '../../rest.py'
     using auth 'ebay.user'
