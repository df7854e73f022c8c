-- Rename or comment a Selling Manager folder.
-- eBay Trading ReviseSellingManagerInventoryFolder: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: Folder.FolderID, Folder.ParentFolderID, Folder.FolderLevel, Folder.FolderName
create table ebay.trading.ReviseSellingManagerInventoryFolder
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'ReviseSellingManagerInventoryFolder'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'ReviseSellingManagerInventoryFolderResponse'
     with arrays 'Folder.ChildFolder', '..Errors', '..ErrorParameters'
  on update post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'ReviseSellingManagerInventoryFolder'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'ReviseSellingManagerInventoryFolderResponse'
     with arrays 'Folder.ChildFolder', '..Errors', '..ErrorParameters'
