-- Search Want It Now posts (legacy).
-- eBay Trading GetWantItNowSearchResults: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: CategoryID, Query, SearchInDescription, SearchWorldwide, Pagination.EntriesPerPage,
--          Pagination.PageNumber
create table ebay.trading.GetWantItNowSearchResults
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetWantItNowSearchResults'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetWantItNowSearchResultsResponse'
     with arrays 'WantItNowPostArray.WantItNowPost', '..Errors', '..ErrorParameters'
