-- Find active listings tied to a product identifier (ePID/ReferenceID, ISBN, UPC, EAN).
-- eBay Finding findItemsByProduct: POST to the Finding gateway; finding.py builds the request body and maps
-- limit/offset onto paginationInput (entriesPerPage, pageNumber).
-- Columns: paginationInput.pageNumber, paginationInput.entriesPerPage, buyerPostalCode,
--          affiliate.trackingId, affiliate.networkId, affiliate.customId, affiliate.geoTargeting,
--          sortOrder, productId, productId.type, itemFilter.paramName, itemFilter.paramValue,
--          itemFilter.name, itemFilter.value, outputSelector
create table ebay.finding.findItemsByProduct
  on select post to "{config.tables.ebay.finding.gateway}"
     with aliases limit = 'paginationInput.entriesPerPage'
     using headers 'X-EBAY-SOA-SECURITY-APPNAME' = '{config.tables.ebay.finding.appname}',
                   'X-EBAY-SOA-OPERATION-NAME' = 'findItemsByProduct'
     using patch 'finding.py'
     resultset 'findItemsByProductResponse'
     with arrays 'searchResult.item', '..error', '..parameter',
                 '..galleryInfoContainer.galleryURL', '..paymentMethod', '..shipToLocations',
                 '..galleryPlusPictureURL', '..attribute', '..eekStatus', '..aspect',
                 '..valueHistogram', '..conditionHistogram'
