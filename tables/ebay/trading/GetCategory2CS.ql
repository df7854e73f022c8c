-- Return category to characteristic-set mappings (legacy).
-- eBay Trading GetCategory2CS: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: CategoryID, AttributeSystemVersion
create table ebay.trading.GetCategory2CS
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetCategory2CS'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetCategory2CSResponse'
     with arrays 'MappedCategoryArray.Category', '..Errors', '..ErrorParameters',
                 '..CategoryParentID', '..CategoryParentName', '..Category',
                 '..SiteWideCharacteristicSets'
