-- Return the selling side of My eBay: active, sold, unsold, scheduled lists.
-- eBay Trading GetMyeBaySelling: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: ScheduledList.Include, ScheduledList.Sort, ScheduledList.IncludeNotes,
--          ScheduledList.Pagination.EntriesPerPage, ScheduledList.Pagination.PageNumber,
--          ActiveList.Include, ActiveList.ListingType, ActiveList.Sort, ActiveList.IncludeNotes,
--          ActiveList.Pagination.EntriesPerPage, ActiveList.Pagination.PageNumber,
--          SoldList.Include, SoldList.Sort, SoldList.DurationInDays, SoldList.IncludeNotes,
--          SoldList.Pagination.EntriesPerPage, SoldList.Pagination.PageNumber,
--          SoldList.OrderStatusFilter, UnsoldList.Include, UnsoldList.Sort,
--          UnsoldList.DurationInDays, UnsoldList.IncludeNotes,
--          UnsoldList.Pagination.EntriesPerPage, UnsoldList.Pagination.PageNumber,
--          DeletedFromSoldList.Include, DeletedFromSoldList.Sort,
--          DeletedFromSoldList.DurationInDays, DeletedFromSoldList.IncludeNotes,
--          DeletedFromUnsoldList.Include, DeletedFromUnsoldList.Sort,
--          DeletedFromUnsoldList.DurationInDays, DeletedFromUnsoldList.IncludeNotes,
--          SellingSummary.Include, HideVariations
create table ebay.trading.GetMyeBaySelling
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetMyeBaySelling'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetMyeBaySellingResponse'
     with arrays 'ActiveList.ItemArray.Item', '..Errors', '..ErrorParameters', '..ItemArray.Item',
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
                 '..Compatibility', '..ShippingServiceCostOverride', '..OrderTransaction',
                 '..ExternalTransaction', '..TransactionArray.Transaction', '..TaxDetails',
                 '..RequiredSellerAction', '..SellerDiscount', '..Payment', '..PaymentReferenceID',
                 '..Refunds.Refund', '..PickupOptions', '..BuyerPackageEnclosure',
                 '..CancelDetail'
