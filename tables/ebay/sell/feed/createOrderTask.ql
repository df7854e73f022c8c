-- Create order task
-- POST /order_task (operation createOrderTask).
-- Auth: the config auth entry 'ebay.user' (scopes: https://api.ebay.com/oauth/api_scope/sell.fulfillment).
-- Body (application/json) from the columns through createOrderTask.j2 (dotted paths, typed per the
-- schema, absent ones left out); one value and no columns is sent as it is.
-- An answer with eBay's errors[] is a statement error (status, errorId, message: rest.py).
-- Columns: marketplace (header X-EBAY-C-MARKETPLACE-ID), feedType,
--          filterCriteria.creationDateRange.from, filterCriteria.creationDateRange.to,
--          filterCriteria.modifiedDateRange.from, filterCriteria.modifiedDateRange.to,
--          filterCriteria.orderStatus, schemaVersion
create table ebay.sell.feed.createOrderTask
  on insert post to "{config.tables.ebay.rest.hosts.api}/sell/feed/v1/order_task"
     using headers 'X-EBAY-C-MARKETPLACE-ID' = '{marketplace}'
     using defaults marketplace = "{config.tables.ebay.rest.marketplace}"
     using bodyTemplate 'createOrderTask.j2' type 'application/json'
     using patch '../../rest.py'
     using auth 'ebay.user'
