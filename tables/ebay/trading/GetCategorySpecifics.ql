-- Return recommended item specifics names/values for categories.
-- eBay Trading GetCategorySpecifics: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: CategorySpecific.CategoryID, CategorySpecific.ItemSpecifics.NameValueList.Name,
--          CategorySpecific.ItemSpecifics.NameValueList.Value
create table ebay.trading.GetCategorySpecifics
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetCategorySpecifics'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetCategorySpecificsResponse'
     with arrays 'Recommendations', '..Errors', '..ErrorParameters', '..NameRecommendation',
                 '..Relationship', '..ValueRecommendation'
