-- Return Selling Manager listing templates.
-- eBay Trading GetSellingManagerTemplates: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: SaleTemplateID
create table ebay.trading.GetSellingManagerTemplates
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetSellingManagerTemplates'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetSellingManagerTemplatesResponse'
     with arrays '..Errors', '..ErrorParameters', '..SellingManagerTemplateDetails',
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
                 '..PaymentAllowedSite', '..Variation', '..VariationSpecifics', '..Pictures',
                 '..VariationSpecificPictureSet',
                 '..VariationSpecificPictureSet.ExternalPictureURL', '..ModifyName',
                 '..Compatibility', '..ShippingServiceCostOverride'
