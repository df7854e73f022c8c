-- Search listings offered in eBay Stores, by store name and/or keywords.
-- eBay Finding findItemsIneBayStores: POST to the Finding gateway; finding.py builds the request body and maps
-- limit/offset onto paginationInput (entriesPerPage, pageNumber).
-- Columns: paginationInput.pageNumber, paginationInput.entriesPerPage, buyerPostalCode,
--          affiliate.trackingId, affiliate.networkId, affiliate.customId, affiliate.geoTargeting,
--          sortOrder, keywords, storeName, itemFilter.paramName, itemFilter.paramValue,
--          itemFilter.value, outputSelector, aspectFilter.aspectName,
--          aspectFilter.aspectValueName, categoryId
create table ebay.finding.findItemsIneBayStores
  on select post to "{config.tables.ebay.finding.gateway}"
     with aliases limit = 'paginationInput.entriesPerPage'
     using headers 'X-EBAY-SOA-SECURITY-APPNAME' = '{config.tables.ebay.finding.appname}',
                   'X-EBAY-SOA-OPERATION-NAME' = 'findItemsIneBayStores'
     using patch 'finding.py'
     resultset 'findItemsIneBayStoresResponse'
     with arrays 'searchResult.item', '..error', '..parameter',
                 '..galleryInfoContainer.galleryURL', '..paymentMethod', '..shipToLocations',
                 '..galleryPlusPictureURL', '..attribute', '..eekStatus', '..categoryHistogram',
                 '..childCategoryHistogram', '..aspect', '..valueHistogram',
                 '..conditionHistogram'
