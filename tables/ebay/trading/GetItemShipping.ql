-- Return shipping costs for an item to a destination.
-- eBay Trading GetItemShipping: POST to the Trading gateway; the request body is built from the columns
-- in schema order by trading.py, and Ack=Failure becomes a statement error.
-- Columns: ItemID, QuantitySold, DestinationPostalCode, DestinationCountryCode
create table ebay.trading.GetItemShipping
  on select post to "{config.tables.ebay.trading.gateway}"
     using headers 'X-EBAY-API-COMPATIBILITY-LEVEL' = '{config.tables.ebay.trading.version}',
                   'X-EBAY-API-SITEID' = '{config.tables.ebay.trading.siteid}',
                   'X-EBAY-API-CALL-NAME' = 'GetItemShipping'
     using defaults RequesterCredentials.eBayAuthToken = "{config.tables.ebay.trading.eBayAuthToken}"
     using patch 'trading.py'
     resultset 'GetItemShippingResponse'
     with arrays 'ShippingDetails.ShippingServiceOptions', '..Errors', '..ErrorParameters',
                 '..ShippingPackageInfo', '..InternationalShippingServiceOption',
                 '..ShipToLocation', '..TaxJurisdiction', '..DiscountProfile',
                 '..ExcludeShipToLocation', '..ShipmentTrackingDetails', '..LineItem'
