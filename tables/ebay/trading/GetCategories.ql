-- Return the category tree (or part of it) for a site.
-- eBay Trading GetCategories: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: CategorySiteID, CategoryParent, LevelLimit, ViewAllNodes
create table ebay.trading.GetCategories
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetCategories'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetCategoriesResponse'
     with arrays 'CategoryArray.Category', '..Errors', '..ErrorParameters', '..CategoryParentID',
                 '..CategoryParentName'
