-- Turn off automatic unpaid-item handling for an order line item.
-- eBay Trading DisableUnpaidItemAssistance: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: ItemID, TransactionID, DisputeID, OrderLineItemID
create table ebay.trading.DisableUnpaidItemAssistance
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'DisableUnpaidItemAssistance'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'DisableUnpaidItemAssistanceResponse'
     with arrays '..Errors', '..ErrorParameters'
  on update post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'DisableUnpaidItemAssistance'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'DisableUnpaidItemAssistanceResponse'
     with arrays '..Errors', '..ErrorParameters'
