-- End up to ten listings in one call.
-- eBay Trading EndItems: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: EndItemRequestContainer.ItemID, EndItemRequestContainer.EndingReason,
--          EndItemRequestContainer.MessageID
create table ebay.trading.EndItems
  on delete post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'EndItems'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'EndItemsResponse'
     with arrays 'EndItemResponseContainer', '..Errors', '..ErrorParameters'
  on update post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'EndItems'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'EndItemsResponse'
     with arrays 'EndItemResponseContainer', '..Errors', '..ErrorParameters'
