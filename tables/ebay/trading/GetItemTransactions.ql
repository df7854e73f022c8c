-- Return order line items (transactions) for one listing.
-- eBay Trading GetItemTransactions: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: ItemID, ModTimeFrom, ModTimeTo, TransactionID, Pagination.EntriesPerPage,
--          Pagination.PageNumber, IncludeFinalValueFee, IncludeContainingOrder, Platform,
--          NumberOfDays, IncludeVariations, OrderLineItemID
create table ebay.trading.GetItemTransactions
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetItemTransactions'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetItemTransactionsResponse'
     with arrays 'TransactionArray.Transaction', '..Errors', '..ErrorParameters',
                 '..ListingEnhancement', '..PaymentMethods', '..CategoryParentID',
                 '..CategoryParentName', '..Copyright', '..AddressAttribute',
                 '..BuyerTaxIdentifier', '..Attribute', '..CharityAffiliationDetail',
                 '..SupportedSite', '..TopRatedProgram', '..RecoupmentPolicyConsent.Site',
                 '..UserSubscription', '..ItemBidDetails', '..Program', '..BidValue',
                 '..ShippingServiceOptions', '..ShippingPackageInfo',
                 '..InternationalShippingServiceOption', '..ShipToLocation', '..TaxJurisdiction',
                 '..DiscountProfile', '..ExcludeShipToLocation', '..ShipmentTrackingDetails',
                 '..LineItem', '..ShipToLocations', '..PictureURL',
                 '..PictureDetails.ExternalPictureURL', '..PictureURLs', '..eBayPictureURL',
                 '..NameValueList', '..NameValueList.Value', '..CrossBorderTrade',
                 '..PaymentAllowedSite', '..Variations.Variation', '..VariationSpecifics',
                 '..Pictures', '..VariationSpecificPictureSet',
                 '..VariationSpecificPictureSet.ExternalPictureURL', '..ModifyName',
                 '..Compatibility', '..ShippingServiceCostOverride', '..ExternalTransaction',
                 '..RequiredSellerAction', '..Payment', '..PaymentReferenceID', '..Refunds.Refund',
                 '..PickupOptions', '..CancelDetail', '..BuyerPackageEnclosure', '..TaxDetails',
                 '..SellerDiscount'
