-- Return My Messages headers, bodies or folder summary.
-- eBay Trading GetMyMessages: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: MessageIDs.MessageID, FolderID, StartTime, EndTime,
--          ExternalMessageIDs.ExternalMessageID, Pagination.EntriesPerPage, Pagination.PageNumber,
--          IncludeHighPriorityMessageOnly
create table ebay.trading.GetMyMessages
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetMyMessages'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetMyMessagesResponse'
     with arrays 'Messages.Message', '..Errors', '..ErrorParameters', '..FolderSummary',
                 '..MessageMedia'
