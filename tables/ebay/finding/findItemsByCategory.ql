-- Browse active listings in one or more leaf or meta categories.
-- eBay Finding findItemsByCategory: POST to the Finding gateway; finding.py builds the request body and maps
-- limit/offset onto paginationInput (entriesPerPage, pageNumber).
-- Example: select searchResult.item from ebay.finding.findItemsByCategory where categoryId = "9355"
-- Columns: paginationInput.pageNumber, paginationInput.entriesPerPage, buyerPostalCode,
--          affiliate.trackingId, affiliate.networkId, affiliate.customId, affiliate.geoTargeting,
--          sortOrder, categoryId, aspectFilter.aspectName, outputSelector
create table ebay.finding.findItemsByCategory
  on select post to "{config.tables.ebay.finding.gateway}"
     with aliases limit = 'paginationInput.entriesPerPage'
     using headers 'X-EBAY-SOA-SECURITY-APPNAME' = '{config.tables.ebay.finding.appname}',
                   'X-EBAY-SOA-OPERATION-NAME' = 'findItemsByCategory'
     using patch 'finding.py'
     resultset 'findItemsByCategoryResponse'
     with arrays 'searchResult.item', '..error', '..parameter',
                 '..galleryInfoContainer.galleryURL', '..paymentMethod', '..shipToLocations',
                 '..galleryPlusPictureURL', '..attribute', '..eekStatus', '..categoryHistogram',
                 '..childCategoryHistogram', '..aspect', '..valueHistogram',
                 '..conditionHistogram'
