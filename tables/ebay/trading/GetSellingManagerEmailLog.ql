-- Return Selling Manager e-mails sent for an order.
-- eBay Trading GetSellingManagerEmailLog: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: ItemID, TransactionID, OrderID, EmailDateRange.TimeFrom, EmailDateRange.TimeTo,
--          OrderLineItemID
create table ebay.trading.GetSellingManagerEmailLog
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetSellingManagerEmailLog'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetSellingManagerEmailLogResponse'
     with arrays 'EmailLog', '..Errors', '..ErrorParameters'
