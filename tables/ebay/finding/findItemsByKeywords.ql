-- Search active listings by a keyword query.
-- eBay Finding findItemsByKeywords: POST to the Finding gateway; finding.py builds the request body and maps
-- limit/offset onto paginationInput (entriesPerPage, pageNumber).
-- Example: select searchResult.item from ebay.finding.findItemsByKeywords where keywords = "iphone"
-- Columns: paginationInput.pageNumber, paginationInput.entriesPerPage, buyerPostalCode,
--          affiliate.trackingId, affiliate.networkId, affiliate.customId, affiliate.geoTargeting,
--          sortOrder, keywords, itemFilter.paramName, itemFilter.paramValue, itemFilter.name,
--          itemFilter.value, aspectFilter.aspectName, aspectFilter.aspectValueName,
--          outputSelector
create table ebay.finding.findItemsByKeywords
  on select post to "{config.tables.ebay.finding.gateway}"
     with aliases limit = 'paginationInput.entriesPerPage'
     using headers 'X-EBAY-SOA-SECURITY-APPNAME' = '{config.tables.ebay.finding.appname}',
                   'X-EBAY-SOA-OPERATION-NAME' = 'findItemsByKeywords'
     using patch 'finding.py'
     resultset 'findItemsByKeywordsResponse'
     with arrays 'searchResult.item', '..error', '..parameter',
                 '..galleryInfoContainer.galleryURL', '..paymentMethod', '..shipToLocations',
                 '..galleryPlusPictureURL', '..attribute', '..eekStatus', '..categoryHistogram',
                 '..childCategoryHistogram', '..aspect', '..valueHistogram',
                 '..conditionHistogram'
