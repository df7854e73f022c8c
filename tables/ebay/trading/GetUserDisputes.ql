-- Return disputes involving the caller.
-- eBay Trading GetUserDisputes: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: DisputeFilterType, DisputeSortType, ModTimeFrom, ModTimeTo, Pagination.EntriesPerPage,
--          Pagination.PageNumber
create table ebay.trading.GetUserDisputes
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetUserDisputes'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetUserDisputesResponse'
     with arrays 'DisputeArray.Dispute', '..Errors', '..ErrorParameters', '..ListingEnhancement',
                 '..PaymentMethods', '..CategoryParentID', '..CategoryParentName', '..Copyright',
                 '..AddressAttribute', '..BuyerTaxIdentifier', '..Attribute',
                 '..CharityAffiliationDetail', '..SupportedSite', '..TopRatedProgram',
                 '..RecoupmentPolicyConsent.Site', '..UserSubscription', '..ItemBidDetails',
                 '..Program', '..BidValue', '..ShippingServiceOptions', '..ShippingPackageInfo',
                 '..InternationalShippingServiceOption', '..ShipToLocation', '..TaxJurisdiction',
                 '..DiscountProfile', '..ExcludeShipToLocation', '..ShipmentTrackingDetails',
                 '..LineItem', '..ShipToLocations', '..PictureURL',
                 '..PictureDetails.ExternalPictureURL', '..PictureURLs', '..eBayPictureURL',
                 '..NameValueList', '..NameValueList.Value', '..CrossBorderTrade',
                 '..PaymentAllowedSite', '..Variation', '..VariationSpecifics', '..Pictures',
                 '..VariationSpecificPictureSet',
                 '..VariationSpecificPictureSet.ExternalPictureURL', '..ModifyName',
                 '..Compatibility', '..ShippingServiceCostOverride', '..DisputeResolution',
                 '..DisputeMessage', '..DisputeFilterCount'
