-- Return the seller's order line items in a time window.
-- eBay Trading GetSellerTransactions: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: ModTimeFrom, ModTimeTo, Pagination.EntriesPerPage, Pagination.PageNumber,
--          IncludeFinalValueFee, IncludeContainingOrder, SKUArray.SKU, Platform, NumberOfDays,
--          InventoryTrackingMethod
create table ebay.trading.GetSellerTransactions
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetSellerTransactions'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetSellerTransactionsResponse'
     with arrays 'TransactionArray.Transaction', '..Errors', '..ErrorParameters',
                 '..AddressAttribute', '..BuyerTaxIdentifier', '..Attribute',
                 '..CharityAffiliationDetail', '..SupportedSite', '..TopRatedProgram',
                 '..RecoupmentPolicyConsent.Site', '..UserSubscription', '..ItemBidDetails',
                 '..Program', '..ShippingServiceOptions', '..ShippingPackageInfo',
                 '..InternationalShippingServiceOption', '..ShipToLocation', '..TaxJurisdiction',
                 '..DiscountProfile', '..ExcludeShipToLocation', '..ShipmentTrackingDetails',
                 '..LineItem', '..ListingEnhancement', '..PaymentMethods', '..CategoryParentID',
                 '..CategoryParentName', '..Copyright', '..BidValue', '..ShipToLocations',
                 '..PictureURL', '..PictureDetails.ExternalPictureURL', '..PictureURLs',
                 '..eBayPictureURL', '..NameValueList', '..NameValueList.Value',
                 '..CrossBorderTrade', '..PaymentAllowedSite', '..Variations.Variation',
                 '..VariationSpecifics', '..Pictures', '..VariationSpecificPictureSet',
                 '..VariationSpecificPictureSet.ExternalPictureURL', '..ModifyName',
                 '..Compatibility', '..ShippingServiceCostOverride', '..ExternalTransaction',
                 '..RequiredSellerAction', '..Payment', '..PaymentReferenceID', '..Refunds.Refund',
                 '..PickupOptions', '..CancelDetail', '..BuyerPackageEnclosure', '..TaxDetails',
                 '..SellerDiscount'
