-- Return eBay keywords and categories relevant to a web page (legacy).
-- eBay Trading GetContextualKeywords: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: URL, Encoding, CategoryID
create table ebay.trading.GetContextualKeywords
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetContextualKeywords'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetContextualKeywordsResponse'
     with arrays 'ContextSearchAsset', '..Errors', '..ErrorParameters', '..CategoryParentID',
                 '..CategoryParentName'
