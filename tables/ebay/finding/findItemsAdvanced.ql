-- Search active listings by keywords and/or category, optionally searching item descriptions.
-- eBay Finding findItemsAdvanced: POST to the Finding gateway; finding.py builds the request body and maps
-- limit/offset onto paginationInput (entriesPerPage, pageNumber).
-- Example: select searchResult.item from ebay.finding.findItemsAdvanced where keywords = "iphone" and categoryId = "9355"
-- Columns: paginationInput.pageNumber, paginationInput.entriesPerPage, buyerPostalCode,
--          affiliate.trackingId, affiliate.networkId, affiliate.customId, affiliate.geoTargeting,
--          sortOrder, keywords, categoryId, aspectFilter.aspectName, outputSelector,
--          descriptionSearch
create table ebay.finding.findItemsAdvanced
  on select post to "{config.tables.ebay.finding.gateway}"
     with aliases limit = 'paginationInput.entriesPerPage'
     using headers 'X-EBAY-SOA-SECURITY-APPNAME' = '{config.tables.ebay.finding.appname}',
                   'X-EBAY-SOA-OPERATION-NAME' = 'findItemsAdvanced'
     using patch 'finding.py'
     resultset 'findItemsAdvancedResponse'
     with arrays 'searchResult.item', '..error', '..parameter',
                 '..galleryInfoContainer.galleryURL', '..paymentMethod', '..shipToLocations',
                 '..galleryPlusPictureURL', '..attribute', '..eekStatus', '..categoryHistogram',
                 '..childCategoryHistogram', '..aspect', '..valueHistogram',
                 '..conditionHistogram'
