-- Delete selected messages or alerts from My Messages.
-- eBay Trading DeleteMyMessages: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: MessageIDs.MessageID
create table ebay.trading.DeleteMyMessages
  on delete post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'DeleteMyMessages'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'DeleteMyMessagesResponse'
     with arrays '..Errors', '..ErrorParameters'
