-- Return order line items for given orders or item/transaction pairs.
-- eBay Trading GetOrderTransactions: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: ItemTransactionIDArray.ItemTransactionID.ItemID,
--          ItemTransactionIDArray.ItemTransactionID.TransactionID,
--          ItemTransactionIDArray.ItemTransactionID.SKU,
--          ItemTransactionIDArray.ItemTransactionID.OrderLineItemID, OrderIDArray.OrderID,
--          Platform, IncludeFinalValueFees
create table ebay.trading.GetOrderTransactions
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetOrderTransactions'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetOrderTransactionsResponse'
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
