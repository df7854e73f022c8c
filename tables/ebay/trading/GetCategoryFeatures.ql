-- Return listing features supported by categories.
-- eBay Trading GetCategoryFeatures: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: CategoryID, LevelLimit, ViewAllNodes, FeatureID, AllFeaturesForCategory
create table ebay.trading.GetCategoryFeatures
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetCategoryFeatures'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetCategoryFeaturesResponse'
     with arrays 'Category', '..Errors', '..ErrorParameters', '..ListingDuration', '..Duration',
                 '..Category.PaymentMethod', '..Condition', '..SiteDefaults.PaymentMethod'
