-- Return a Selling Manager sale record.
-- eBay Trading GetSellingManagerSaleRecord: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: ItemID, TransactionID, OrderID, OrderLineItemID
create table ebay.trading.GetSellingManagerSaleRecord
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetSellingManagerSaleRecord'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetSellingManagerSaleRecordResponse'
     with arrays 'SellingManagerSoldOrder.SellingManagerSoldTransaction', '..Errors',
                 '..ErrorParameters', '..ListedOn', '..AddressAttribute', '..ShippingFeature',
                 '..ItemTransactionID', '..ShipmentTrackingDetails', '..LineItem',
                 '..VariationSpecifics', '..NameValueList', '..NameValueList.Value',
                 '..BuyerTaxIdentifier', '..Attribute', '..CharityAffiliationDetail',
                 '..SupportedSite', '..TopRatedProgram', '..RecoupmentPolicyConsent.Site',
                 '..UserSubscription', '..ItemBidDetails', '..Program', '..BidValue',
                 '..ShippingServiceOptions', '..ShippingPackageInfo',
                 '..InternationalShippingServiceOption', '..ShipToLocation', '..TaxJurisdiction',
                 '..DiscountProfile', '..ExcludeShipToLocation', '..VATRate'
