-- Return Selling Manager sold listings (sale records).
-- eBay Trading GetSellingManagerSoldListings: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: Search.SearchType, Search.SearchValue, StoreCategoryID, Filter, Archived, Sort,
--          SortOrder, Pagination.EntriesPerPage, Pagination.PageNumber, SaleDateRange.TimeFrom,
--          SaleDateRange.TimeTo
create table ebay.trading.GetSellingManagerSoldListings
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetSellingManagerSoldListings'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetSellingManagerSoldListingsResponse'
     with arrays 'SaleRecord', '..Errors', '..ErrorParameters', '..SellingManagerSoldTransaction',
                 '..ListedOn', '..AddressAttribute', '..ShippingFeature', '..ItemTransactionID',
                 '..ShipmentTrackingDetails', '..LineItem', '..VariationSpecifics',
                 '..NameValueList', '..NameValueList.Value', '..BuyerTaxIdentifier', '..Attribute',
                 '..CharityAffiliationDetail', '..SupportedSite', '..TopRatedProgram',
                 '..RecoupmentPolicyConsent.Site', '..UserSubscription', '..ItemBidDetails',
                 '..Program', '..BidValue', '..ShippingServiceOptions', '..ShippingPackageInfo',
                 '..InternationalShippingServiceOption', '..ShipToLocation', '..TaxJurisdiction',
                 '..DiscountProfile', '..ExcludeShipToLocation', '..VATRate'
