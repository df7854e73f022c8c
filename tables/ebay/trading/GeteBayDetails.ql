-- Return site metadata (sites, currencies, shipping services, return policies...).
-- eBay Trading GeteBayDetails: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: DetailName
create table ebay.trading.GeteBayDetails
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GeteBayDetails'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GeteBayDetailsResponse'
     with arrays 'SiteDetails', '..Errors', '..ErrorParameters', '..CountryDetails',
                 '..CurrencyDetails', '..DispatchTimeMaxDetails', '..PaymentOptionDetails',
                 '..RegionDetails', '..ShippingLocationDetails', '..ShippingServiceDetails',
                 '..ServiceType', '..ShippingServiceDetails.ShippingPackage',
                 '..ShippingServiceDetails.ShippingCarrier', '..DeprecationDetails',
                 '..ShippingServicePackageDetails', '..TaxJurisdiction', '..URLDetails',
                 '..TimeZoneDetails', '..ItemSpecificDetails', '..RegionOfOriginDetails',
                 '..ShippingPackageDetails', '..ShippingCarrierDetails', '..Refund',
                 '..ReturnsWithin', '..ReturnsAccepted', '..WarrantyOffered', '..WarrantyType',
                 '..WarrantyDuration', '..ShippingCostPaidBy', '..RestockingFeeValue',
                 '..ListingStartPriceDetails', '..BuyerRequirementDetails', '..Count',
                 '..PolicyViolationDuration', '..MaximumItemCount',
                 '..MaximumItemRequirements.MinimumFeedbackScore',
                 '..MaximumUnpaidItemStrikesDuration', '..FeedbackScore',
                 '..ListingFeatureDetails', '..ExcludeShippingLocationDetails',
                 '..RecoupmentPolicyDetails', '..ShippingCategoryDetails'
