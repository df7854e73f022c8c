-- Return popular search keywords per category (legacy).
-- eBay Trading GetPopularKeywords: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: CategoryID, IncludeChildCategories, MaxKeywordsRetrieved, Pagination.EntriesPerPage,
--          Pagination.PageNumber
create table ebay.trading.GetPopularKeywords
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetPopularKeywords'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetPopularKeywordsResponse'
     with arrays 'CategoryArray.Category', '..Errors', '..ErrorParameters', '..CategoryParentID',
                 '..CategoryParentName'
