-- Return full data about one listing (seller view when caller is the seller).
-- eBay Trading GetItem: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Example: select Item.Title, Item.SellingStatus from ebay.trading.GetItem where ItemID = "230851234561"
-- Columns: ItemID, IncludeWatchCount, IncludeItemSpecifics, IncludeTaxTable, SKU,
--          VariationSpecifics, VariationSpecifics.NameValueList.Name,
--          VariationSpecifics.NameValueList.Value, TransactionID, IncludeItemCompatibilityList
create table ebay.trading.GetItem
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetItem'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetItemResponse'
     with arrays '..Errors', '..ErrorParameters', '..ListingEnhancement', '..PaymentMethods',
                 '..CategoryParentID', '..CategoryParentName', '..Copyright', '..AddressAttribute',
                 '..BuyerTaxIdentifier', '..Attribute', '..CharityAffiliationDetail',
                 '..SupportedSite', '..TopRatedProgram', '..RecoupmentPolicyConsent.Site',
                 '..UserSubscription', '..ItemBidDetails', '..Program', '..BidValue',
                 '..ShippingServiceOptions', '..ShippingPackageInfo',
                 '..InternationalShippingServiceOption', '..ShipToLocation', '..TaxJurisdiction',
                 '..DiscountProfile', '..ExcludeShipToLocation', '..ShipmentTrackingDetails',
                 '..LineItem', '..ShipToLocations', '..PictureURL',
                 '..PictureDetails.ExternalPictureURL', '..PictureURLs', '..eBayPictureURL',
                 '..NameValueList', '..NameValueList.Value', '..CrossBorderTrade',
                 '..PaymentAllowedSite', '..Variation', '..VariationSpecifics', '..Pictures',
                 '..VariationSpecificPictureSet',
                 '..VariationSpecificPictureSet.ExternalPictureURL', '..ModifyName',
                 '..Compatibility', '..ShippingServiceCostOverride'
