-- Change price and/or quantity of up to four listings or variations.
-- eBay Trading ReviseInventoryStatus: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: InventoryStatus.SKU, InventoryStatus.ItemID, InventoryStatus.StartPrice,
--          InventoryStatus.Quantity
create table ebay.trading.ReviseInventoryStatus
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'ReviseInventoryStatus'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'ReviseInventoryStatusResponse'
     with arrays 'InventoryStatus', '..Errors', '..ErrorParameters', '..Fees', '..Fees.Fee'
  on update post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'ReviseInventoryStatus'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'ReviseInventoryStatusResponse'
     with arrays 'InventoryStatus', '..Errors', '..ErrorParameters', '..Fees', '..Fees.Fee'
