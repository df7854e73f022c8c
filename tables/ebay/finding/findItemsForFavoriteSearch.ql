-- Run one of the signed-in user's saved searches.
-- eBay Finding findItemsForFavoriteSearch: POST to the Finding gateway; finding.py builds the request body and maps
-- limit/offset onto paginationInput (entriesPerPage, pageNumber).
-- Columns: paginationInput
create table ebay.finding.findItemsForFavoriteSearch
  on select post to "{config.tables.ebay.finding.gateway}"
     with aliases limit = 'paginationInput.entriesPerPage'
     using headers 'X-EBAY-SOA-SECURITY-APPNAME' = '{config.tables.ebay.finding.appname}',
                   'X-EBAY-SOA-OPERATION-NAME' = 'findItemsForFavoriteSearch'
     using patch 'finding.py'
     resultset 'findItemsForFavoriteSearchResponse'
     with arrays '..error', '..parameter'
