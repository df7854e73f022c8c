-- Add, rename, move or delete store categories.
-- eBay Trading SetStoreCategories: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: Action, ItemDestinationCategoryID, DestinationParentCategoryID,
--          StoreCategories.CustomCategory.CategoryID, StoreCategories.CustomCategory.Name,
--          StoreCategories.CustomCategory.Order
create table ebay.trading.SetStoreCategories
  on insert post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'SetStoreCategories'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'SetStoreCategoriesResponse'
     with arrays 'CustomCategory.CustomCategory', '..Errors', '..ErrorParameters',
                 '..ChildCategory'
  on update post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'SetStoreCategories'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'SetStoreCategoriesResponse'
     with arrays 'CustomCategory.CustomCategory', '..Errors', '..ErrorParameters',
                 '..ChildCategory'
