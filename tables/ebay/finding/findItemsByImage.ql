-- Find active listings whose pictures look like the pictures of a given item (clothing categories).
-- eBay Finding findItemsByImage: POST to the Finding gateway; finding.py builds the request body and maps
-- limit/offset onto paginationInput (entriesPerPage, pageNumber).
-- Columns: paginationInput.pageNumber, paginationInput.entriesPerPage, buyerPostalCode,
--          affiliate.trackingId, affiliate.networkId, affiliate.customId, affiliate.geoTargeting,
--          itemId, categoryId, itemFilter.paramName, itemFilter.paramValue, itemFilter.name,
--          itemFilter.value, aspectFilter.aspectName, aspectFilter.aspectValueName,
--          outputSelector
create table ebay.finding.findItemsByImage
  on select post to "{config.tables.ebay.finding.gateway}"
     with aliases limit = 'paginationInput.entriesPerPage'
     using headers 'X-EBAY-SOA-SECURITY-APPNAME' = '{config.tables.ebay.finding.appname}',
                   'X-EBAY-SOA-OPERATION-NAME' = 'findItemsByImage'
     using patch 'finding.py'
     resultset 'findItemsByImageResponse'
     with arrays 'searchResult.item', '..error', '..parameter',
                 '..galleryInfoContainer.galleryURL', '..paymentMethod', '..shipToLocations',
                 '..galleryPlusPictureURL', '..attribute', '..eekStatus', '..categoryHistogram',
                 '..childCategoryHistogram', '..aspect', '..valueHistogram',
                 '..conditionHistogram'
