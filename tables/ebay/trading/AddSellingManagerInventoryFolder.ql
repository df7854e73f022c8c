-- Create a Selling Manager inventory folder.
-- eBay Trading AddSellingManagerInventoryFolder: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: FolderName, ParentFolderID, Comment
create table ebay.trading.AddSellingManagerInventoryFolder
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'AddSellingManagerInventoryFolder'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'AddSellingManagerInventoryFolderResponse'
     with arrays '..Errors', '..ErrorParameters'
