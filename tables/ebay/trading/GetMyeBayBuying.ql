-- Return the buying side of My eBay: watch list, bids, won/lost lists, favourites.
-- eBay Trading GetMyeBayBuying: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Example: select WatchList from ebay.trading.GetMyeBayBuying where WatchList.Include = "true"
-- Columns: WatchList.Include, WatchList.Sort, WatchList.IncludeNotes,
--          WatchList.Pagination.EntriesPerPage, WatchList.Pagination.PageNumber, BidList.Include,
--          BidList.Sort, BidList.IncludeNotes, BidList.Pagination.EntriesPerPage,
--          BidList.Pagination.PageNumber, BestOfferList.Include, BestOfferList.ListingType,
--          BestOfferList.Sort, BestOfferList.DurationInDays, BestOfferList.IncludeNotes,
--          BestOfferList.Pagination.EntriesPerPage, BestOfferList.Pagination.PageNumber,
--          WonList.Include, WonList.Sort, WonList.DurationInDays, WonList.IncludeNotes,
--          WonList.Pagination.EntriesPerPage, WonList.Pagination.PageNumber, LostList.Include,
--          LostList.Sort, LostList.DurationInDays, LostList.IncludeNotes,
--          LostList.Pagination.EntriesPerPage, LostList.Pagination.PageNumber,
--          FavoriteSearches.Include, FavoriteSearches.IncludeItemCount,
--          FavoriteSearches.IncludeFavoriteSellerCount, FavoriteSearches.Sort,
--          FavoriteSearches.MaxResults, FavoriteSellers.Include, FavoriteSellers.IncludeItemCount,
--          FavoriteSellers.IncludeFavoriteSellerCount, FavoriteSellers.Sort,
--          FavoriteSellers.MaxResults, SecondChanceOffer.Include, … (25 more in schema.json)
create table ebay.trading.GetMyeBayBuying
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetMyeBayBuying'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetMyeBayBuyingResponse'
     with arrays 'WatchList.ItemArray.Item', '..Errors', '..ErrorParameters',
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
                 '..Compatibility', '..ShippingServiceCostOverride', '..ItemArray.Item',
                 '..OrderTransaction', '..ExternalTransaction', '..TransactionArray.Transaction',
                 '..TaxDetails', '..RequiredSellerAction', '..SellerDiscount', '..Payment',
                 '..PaymentReferenceID', '..Refunds.Refund', '..PickupOptions',
                 '..BuyerPackageEnclosure', '..CancelDetail', '..FavoriteSearch', '..SearchFlag',
                 '..FavoriteSearch.SellerID', '..SellerIDExclude', '..FavoriteSeller',
                 '..SecondChanceOffer', '..UserDefinedList'
