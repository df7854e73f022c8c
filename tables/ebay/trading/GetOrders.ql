-- Return orders for a seller or buyer in a time range or by ID.
-- eBay Trading GetOrders: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: OrderIDArray.OrderID, CreateTimeFrom, CreateTimeTo, OrderRole, OrderStatus,
--          ListingType, Pagination.EntriesPerPage, Pagination.PageNumber, ModTimeFrom, ModTimeTo,
--          NumberOfDays, IncludeFinalValueFee
create table ebay.trading.GetOrders
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetOrders'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetOrdersResponse'
     with arrays 'OrderArray.Order', '..Errors', '..ErrorParameters', '..ShippingServiceOptions',
                 '..ShippingPackageInfo', '..InternationalShippingServiceOption',
                 '..ShipToLocation', '..TaxJurisdiction', '..DiscountProfile',
                 '..ExcludeShipToLocation', '..ShipmentTrackingDetails', '..LineItem',
                 '..PaymentMethods', '..AddressAttribute', '..ExternalTransaction',
                 '..Transaction', '..BuyerTaxIdentifier', '..Attribute',
                 '..CharityAffiliationDetail', '..SupportedSite', '..TopRatedProgram',
                 '..RecoupmentPolicyConsent.Site', '..UserSubscription', '..ItemBidDetails',
                 '..Program', '..ListingEnhancement', '..CategoryParentID', '..CategoryParentName',
                 '..Copyright', '..BidValue', '..ShipToLocations', '..PictureURL',
                 '..PictureDetails.ExternalPictureURL', '..PictureURLs', '..eBayPictureURL',
                 '..NameValueList', '..NameValueList.Value', '..CrossBorderTrade',
                 '..PaymentAllowedSite', '..Variations.Variation', '..VariationSpecifics',
                 '..Pictures', '..VariationSpecificPictureSet',
                 '..VariationSpecificPictureSet.ExternalPictureURL', '..ModifyName',
                 '..Compatibility', '..ShippingServiceCostOverride', '..TaxDetails',
                 '..RequiredSellerAction', '..SellerDiscount', '..Payment', '..PaymentReferenceID',
                 '..Refunds.Refund', '..PickupOptions', '..BuyerPackageEnclosure',
                 '..CancelDetail'
