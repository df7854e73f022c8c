-- Return categories that best match a query.
-- eBay Trading GetSuggestedCategories: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: Query
create table ebay.trading.GetSuggestedCategories
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetSuggestedCategories'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetSuggestedCategoriesResponse'
     with arrays 'SuggestedCategoryArray.SuggestedCategory', '..Errors', '..ErrorParameters',
                 '..CategoryParentID', '..CategoryParentName'
