-- Return eBay Store configuration.
-- eBay Trading GetStore: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: CategoryStructureOnly, RootCategoryID, LevelLimit, UserID
create table ebay.trading.GetStore
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetStore'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetStoreResponse'
     with arrays 'Store.CustomCategories.CustomCategory', '..Errors', '..ErrorParameters',
                 '..ChildCategory', '..LinkToInclude'
