-- Return the status of a store category change task.
-- eBay Trading GetStoreCategoryUpdateStatus: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: TaskID
create table ebay.trading.GetStoreCategoryUpdateStatus
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetStoreCategoryUpdateStatus'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetStoreCategoryUpdateStatusResponse'
     with arrays '..Errors', '..ErrorParameters'
