-- Create inventory task
-- POST /inventory_task (operation createInventoryTask).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.inventory).
-- Body (application/json) from the columns through createInventoryTask.j2 (dotted paths, typed per
-- the schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: marketplace (header X-EBAY-C-MARKETPLACE-ID), schemaVersion, feedType,
--          filterCriteria.listingFormat
create table ebay.sell.feed.createInventoryTask
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/feed/v1/inventory_task"
     using headers 'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using bodyTemplate 'createInventoryTask.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
