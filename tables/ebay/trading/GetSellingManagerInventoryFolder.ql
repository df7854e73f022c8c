-- Return the Selling Manager folder tree.
-- eBay Trading GetSellingManagerInventoryFolder: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: FolderID, MaxDepth, FullRecursion
create table ebay.trading.GetSellingManagerInventoryFolder
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetSellingManagerInventoryFolder'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetSellingManagerInventoryFolderResponse'
     with arrays 'Folder.ChildFolder', '..Errors', '..ErrorParameters'
